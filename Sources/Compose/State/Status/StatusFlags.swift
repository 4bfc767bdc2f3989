/// The activities a component has going on (loading, saving, ...), as a
/// set of flags with an emitter of its changes.
///
/// ```swift
/// struct Inbox: Component {
///     let status = Status()          // StatusFlags<StatusFlag>
///     let refresh = SignalEmitter()
/// }
///
/// extension Inbox {
///     var observers: Void {
///         status.changes(of: .loading) ++= { isLoading in
///             print(isLoading ? "loading…" : "ready")
///         }
///         refresh += {
///             Task { try await status.while(.loading) { try await fetchMessages() } }
///         }
///     }
/// }
/// ```
///
/// - A flag is on while at least one ``while(_:_:)`` for it is running, or
///   after ``set(_:)`` until ``clear(_:)``. Uses overlap: two loads that
///   overlap keep `.loading` on until both have ended.
/// - The flags are an emitter of the whole set (`status += { flags in }`,
///   `~+=`, every combinator): it sends once per flag turning on or off,
///   never when nothing changed. Its last value is the current set from
///   the start, so `++=` reports it at once.
/// - Like an ``Emitter``, copies share one set of flags: store it in a
///   component and use it from its observers and tasks. Everything runs on
///   the main actor.
/// - It is a type of its own, not operators on `Set`: ``flags`` is a plain
///   `Set` to read.
@MainActor
public struct StatusFlags<Flag: Hashable & Sendable>: EmitterProtocol, Sendable {
    private let changes: Emitter<Set<Flag>>
    private let counts: StatusCounts<Flag>

    /// Creates status flags with every flag off.
    nonisolated public init() {
        changes = Emitter()
        counts = StatusCounts()
    }

    /// The emitter of the set of flags that are on, sent at every change.
    public var emitter: Emitter<Set<Flag>> {
        // Every change sends, so before the first one the set is empty:
        // give it as the last value so that `++=` replays it.
        if changes.lastValue == nil { changes.storage.prime(counts.active) }
        return changes
    }

    /// The flags that are on.
    public var flags: Set<Flag> { counts.active }

    /// Whether no flag is on.
    public var isEmpty: Bool { counts.active.isEmpty }

    /// Whether `flag` is on.
    public func contains(_ flag: Flag) -> Bool {
        counts.active.contains(flag)
    }

    /// Turns `flag` on until ``clear(_:)``; nothing if it was already set
    /// this way.
    ///
    /// Independent of ``while(_:_:)``: a flag is on while either holds it.
    public func set(_ flag: Flag) {
        if counts.manual.insert(flag).inserted { update(flag) }
    }

    /// Undoes ``set(_:)``. The flag stays on while a ``while(_:_:)`` for
    /// it is still running.
    public func clear(_ flag: Flag) {
        if counts.manual.remove(flag) != nil { update(flag) }
    }

    /// An emitter of whether `flag` is on, sent when it turns on or off.
    ///
    /// ```swift
    /// status.changes(of: .saving) ++= { saving in saveButton.isEnabled = !saving }
    /// ```
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters"),
    /// starting with the flag's current state as its last value, so `++=`
    /// replays it.
    ///
    /// - Parameter flag: The flag to follow.
    /// - Returns: An emitter of `true` (on) and `false` (off), alternating.
    public func changes(of flag: Flag) -> Emitter<Bool> {
        let start = contains(flag)
        return emitter.derive(primedWith: start) { output in
            var previous = start
            return { flags in
                let isOn = flags.contains(flag)
                guard isOn != previous else { return }
                previous = isOn
                output.send(isOn)
            }
        }
    }

    /// Counts one more use of `flag` (``while(_:_:)`` begins).
    func hold(_ flag: Flag) {
        counts.holds[flag, default: 0] += 1
        update(flag)
    }

    /// Counts one use of `flag` fewer (``while(_:_:)`` ends).
    func release(_ flag: Flag) {
        guard let holds = counts.holds[flag] else { return }
        counts.holds[flag] = holds > 1 ? holds - 1 : nil
        update(flag)
    }

    /// Turns `flag` on or off to match its holders, sending the new set if
    /// that changed it.
    private func update(_ flag: Flag) {
        let isOn = counts.manual.contains(flag) || counts.holds[flag] != nil
        guard isOn != counts.active.contains(flag) else { return }
        if isOn {
            counts.active.insert(flag)
        } else {
            counts.active.remove(flag)
        }
        changes.send(counts.active)
    }
}

/// Binding looks inside status flags for their emitter, which becomes the
/// component's: its observers end with the component.
extension StatusFlags: FrameworkValue {}

/// The shared state of a ``StatusFlags`` and its copies.
@MainActor
final class StatusCounts<Flag: Hashable> {
    /// Running ``StatusFlags/while(_:_:)`` calls, per flag (absent: none).
    var holds: [Flag: Int] = [:]
    /// Flags turned on by ``StatusFlags/set(_:)``.
    var manual: Set<Flag> = []
    /// The flags that are on: those held or set.
    var active: Set<Flag> = []

    nonisolated init() {}
}
