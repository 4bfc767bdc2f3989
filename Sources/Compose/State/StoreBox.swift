/// The shared storage behind a ``Store`` (and behind the value a ``Ref``
/// shares): the state, the emitter of its changes, and, for a persisted
/// store, its key.
///
/// Copies of a store (and of the component holding it) share one box. The
/// state lives behind a `let` pointer, like ``EmitterStorage``'s, so reading
/// and writing it pays no dynamic exclusivity check; the write path is
/// `@inlinable`, so it is specialised for the state type in the module that
/// writes.
@MainActor
@usableFromInline
final class StoreBox<State: Equatable>: StateCell, StateReading {
    // Safe: the escape hatch below only lets the nonisolated `init` store the pointer
    // (stores are made in a component's property initialisers, anywhere).
    // The pointee is read and written solely on the main actor, by the
    // main-actor ``Store`` accessors and this class's methods and isolated
    // deinit, so it is never shared across threads.
    @usableFromInline
    nonisolated(unsafe) let pointer: UnsafeMutablePointer<State>
    /// Sends the state after each change; its last value is the state last
    /// sent (primed with the initial state, so `~+=` has an old value from
    /// the first change on).
    @usableFromInline
    let changes: Emitter<State>
    /// The key and the back end of a persisted store; `nil` otherwise.
    @usableFromInline
    let persistence: StorePersistence<State>?

    @inlinable
    nonisolated init(_ value: State, persistence: StorePersistence<State>? = nil) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
        changes = Emitter(primedWith: value)
        self.persistence = persistence
        // Made here, in inlinable code, so that the deferred send is the
        // specialised `sendIfChanged` of this state type.
        super.init(sendDeferred: { cell in
            unsafeDowncast(cell, to: StoreBox<State>.self).sendIfChanged()
        })
    }

    isolated deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    override var stateType: Any.Type { State.self }

    /// Whether the state is being modified in place (`state.items.append(x)`,
    /// through ``Store/wrappedValue``'s `_modify`): the pointee is then
    /// under an inout access, which nothing may overlap. Memory behind a
    /// pointer has no dynamic exclusivity check, so this flag is that
    /// check: a read or write of the same store meanwhile (from a mutating
    /// method of the state, or a `didSet` inside it, that reaches the
    /// store) stops with a message instead of being undefined behaviour.
    // Unchecked exclusivity in release builds: set and cleared in plain
    // statements around the yield, read by a load and a branch, never
    // held across a call. Debug builds keep the checks.
    #if DEBUG
    @usableFromInline var isModifying = false
    #else
    @usableFromInline @exclusivity(unchecked) var isModifying = false
    #endif

    /// The state now (written, maybe not sent yet).
    var currentState: State {
        checkAccess()
        return pointer.pointee
    }

    /// Stops, naming the store, when the state is being modified in place
    /// (see ``isModifying``); one load and a branch otherwise.
    @inlinable @inline(__always)
    func checkAccess() {
        if isModifying { overlappingAccess() }
    }

    @usableFromInline
    func overlappingAccess() -> Never {
        let name = owner.flatMap { node in node.boxLabel(of: self).map { node.path + "." + $0 } } ?? "a store of \(State.self)"
        fatalError("\(name) was read or written while it was being modified in place: a mutating method of its state (or a didSet inside it) reached the same store. Those are overlapping accesses to one value, which Swift forbids. Modify a copy and assign it (var copy = state; copy.change(); state = copy), or keep the code that reaches the store out of the state's mutating methods.")
    }

    // MARK: Writing

    /// Called after every write: sends at once outside any dispatch, or
    /// once when the outermost dispatch ends.
    @inlinable
    func didWrite() {
        if ObservationContext.cell == nil {
            sendIfChanged()
        } else {
            deferSend()
        }
    }

    /// Sends the state if it differs from the state last sent, telling the
    /// persistence back end first (so that a change an observer makes in
    /// reaction reaches it after this one).
    @inlinable
    func sendIfChanged() {
        // Compared in place: copying the last state out first would retain
        // and release every reference it holds (a String's storage).
        checkAccess()
        if isUnchanged { return }
        let value = pointer.pointee
        if let persistence { persistence.stateDidChange(value) }
        changes.storage.send(value)
    }

    /// Whether the state equals the state last sent.
    @inlinable
    var isUnchanged: Bool {
        switch changes.storage.state.pointee.last {
        case .some(let last): last == pointer.pointee
        case .none: false
        }
    }

    // MARK: Binding

    override func claim(by node: ComponentNode) {
        super.claim(by: node)
        // Handed down to a child: its first owner keeps it.
        guard owner === node else { return }
        // The change emitter belongs to the component too: the ancestor
        // rule applies to it, destroying the component cancels its
        // observers, and event traces record its sends.
        changes.storage.claim(by: node)
        guard let persistence else { return }
        let path = node.boxLabel(of: self).map { node.path + "." + $0 } ?? node.path
        if persistence.attach(in: node, path: path), let restored = persistence.restore() {
            pointer.pointee = restored
            changes.storage.prime(restored)
        }
    }

    override func ownerWillBeDestroyed() {
        persistence?.detach()
    }
}

extension StoreBox: ChangeEmitterBox {
    var changeStorage: BoundObject { changes.storage }
}

/// A box whose property names an emitter it carries (stores, mirrored
/// stores): an event path names that emitter after the property
/// (`counter.state`), and a mirrored store finds the state behind it.
@MainActor
protocol ChangeEmitterBox: AnyObject {
    /// The storage of the emitter of changes.
    var changeStorage: BoundObject { get }
}

/// A box that can tell its state now (a store, a mirrored store).
@MainActor
protocol StateReading<State>: AnyObject {
    associatedtype State
    var currentState: State { get }
}

extension Emitter {
    /// An emitter whose last value is `value`, as if it had sent it.
    @usableFromInline
    nonisolated init(primedWith value: Value) {
        storage = EmitterStorage(primedWith: value)
    }
}
