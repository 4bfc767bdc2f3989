public import ComposeApp
internal import Logging

/// Restores and saves an app's persisted stores (`@Store(persistedAs:)`)
/// through a `StateStorage`: JSON in a versioned envelope
/// (``StateEnvelope``), saves debounced on the app's clock, flushed at
/// shutdown, failures reported as diagnostics and retried.
///
/// An app's first persisted store installs one on the app's context
/// (`StatePersistenceFactory.json(debounce:maximumWait:)` with its
/// defaults, unless the app's configuration names another), on the
/// context's state storage: a `FileStateStorage` in the app's state
/// directory, or a `TestApp`'s in-memory storage.
///
/// **When a state is saved.** A change is saved once the state has stayed
/// unchanged for ``debounce``, and, for a state that keeps changing, no
/// later than ``maximumWait`` after its first unsaved change (a pure
/// trailing debounce would never save it). Both run on the context's
/// scheduler, so tests control them with virtual time. Whatever is unsaved
/// is saved when a graceful shutdown begins (`willShutDown`) and once more
/// when the app ends (`willExit`, after the tree is gone), and by
/// ``flush()``. Without a scheduler every change is saved at once.
///
/// **When something fails.** A file that cannot be read or decoded is moved
/// aside (`StateStorage.moveAside(key:)`) and reported as
/// `Diagnostic.Code.stateUnreadable`; the store keeps its default state.
/// A save that fails is reported as `Diagnostic.Code.stateSaveFailed`
/// with the path and the error; the previous save stays intact and the
/// state is saved again at the next change (and at shutdown).
///
/// Saves run synchronously on the loop thread, encoding included: meant
/// for small states. (On the benchmark machine, a 1 MB state of 11,500
/// records took about 0.25 s to encode with `JSONEncoder` and 15-20 ms to
/// write and fsync: keep persisted states small, or split them by key.)
@MainActor
public final class StatePersistence<Storage: StateStorage>: StatePersisting {
    /// The back end. Replacing it (before anything is restored) redirects
    /// every later load and save.
    public var storage: Storage
    /// How long a state must stay unchanged before it is saved.
    public let debounce: Duration
    /// The longest a change waits to be saved while the state keeps
    /// changing.
    public let maximumWait: Duration
    /// Sent with the key after each completed save.
    public let didSave = Emitter<String>()

    private(set) weak var context: AppContext?
    var pending: [String: PendingSave] = [:]
    /// Keys whose last save failed (to log their recovery).
    var failing: Set<String> = []

    /// A coordinator of `context`'s persisted stores on `storage`, flushed
    /// at `context`'s shutdown.
    ///
    /// - Parameters:
    ///   - storage: Where the bytes go (a file per key in an app, memory in
    ///     a test).
    ///   - context: The app whose stores are persisted; saves run on its
    ///     clock and are flushed at its shutdown.
    ///   - debounce: How long a state must stay unchanged before it is
    ///     saved.
    ///   - maximumWait: The longest a change waits while the state keeps
    ///     changing (at least `debounce`).
    public init(
        storage: Storage,
        context: AppContext,
        debounce: Duration = .milliseconds(500),
        maximumWait: Duration = .seconds(1)
    ) {
        self.storage = storage
        self.context = context
        self.debounce = max(debounce, .zero)
        self.maximumWait = max(maximumWait, self.debounce)
        context.shutdown.willShutDown.observe { [weak self] in self?.flush() }
        context.shutdown.willExit.observe { [weak self] in self?.flush() }
    }

    /// The state saved under `key`: its unsaved latest value when there is
    /// one, else what the storage holds, migrated if it is an older
    /// version. `nil` when nothing was saved, or when it could not be read
    /// or decoded (then it was moved aside and reported).
    public func restore<State: Codable>(_ type: State.Type, key: String) -> State? {
        if let unsaved = pending[key]?.value as? State { return unsaved }
        let bytes: [UInt8]?
        do {
            bytes = try storage.load(key: key)
        } catch {
            moveAside(key, because: "cannot be read (\(error))")
            return nil
        }
        guard let bytes else { return nil }
        do {
            return try StateEnvelope.decode(State.self, from: bytes)
        } catch {
            moveAside(key, because: "cannot be decoded as \(State.self) (\(StateEnvelope.explain(error)))")
            return nil
        }
    }

    /// Records `state` as the latest under `key` and schedules its save.
    public func stateDidChange<State: Codable>(_ state: State, key: String) {
        let now = self.now
        let encode = { try StateEnvelope.encode(state) }
        if var entry = pending[key] {
            entry.value = state
            entry.encode = encode
            entry.lastChange = now
            pending[key] = entry
        } else {
            pending[key] = PendingSave(value: state, encode: encode, firstChange: now, lastChange: now)
        }
        scheduleSave(of: key)
    }

    /// Saves every unsaved state now (in key order).
    public func flush() {
        for key in pending.keys.sorted() {
            save(key)
        }
    }

    /// The keys with a change not saved yet.
    public var unsavedKeys: [String] {
        pending.keys.sorted()
    }

    // MARK: Reporting

    var now: Duration {
        context?.scheduler?.now ?? .zero
    }

    var scheduler: (any Scheduler)? {
        context?.scheduler
    }

    func report(_ code: Diagnostic.Code, _ message: String) {
        guard let context else { return }
        context.report(Diagnostic(code, message))
    }

    func logRecovery(of key: String) {
        context?.logger.info("Saved state \"\(key)\" to \(storage.location(of: key)) again after a failure.")
    }

    private func moveAside(_ key: String, because reason: String) {
        let location = storage.location(of: key)
        do {
            let aside = try storage.moveAside(key: key)
            report(.stateUnreadable, "The state \"\(key)\" at \(location) \(reason): moved aside to \(aside); the store keeps its default state.")
        } catch {
            report(.stateUnreadable, "The state \"\(key)\" at \(location) \(reason), and cannot be moved aside (\(error)); the store keeps its default state and the next save replaces the file.")
        }
    }
}
