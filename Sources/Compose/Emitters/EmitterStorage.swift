/// The shared reference box behind every ``Emitter``.
///
/// Copies of an emitter (and so copies of the component that holds it) share
/// one storage. It keeps the observers in subscription order in a flat buffer
/// so that a send costs about as much as calling the closures from an array:
///
/// - the mutable state lives behind a `let` pointer, so the dispatch loop pays
///   no dynamic exclusivity check per observer;
/// - each observer's closure sits in a ``Handler`` held as `Unmanaged`, called
///   through a guaranteed (+0) reference, so a send retains nothing;
/// - observers cancelled while a dispatch runs are only marked; their handlers
///   are released when the outermost dispatch has finished ("compaction"),
///   which is what makes the +0 call above safe.
@MainActor
final class EmitterStorage<Value>: BoundObject, AnyEmitterStorage {

    /// Observer state flags.
    enum SlotState: UInt8 {
        case live
        /// Called at most once (`!+=`), then cancelled.
        case once
        case cancelled
    }

    struct Slot {
        var id: UInt64
        var handler: Unmanaged<Handler<Value>>
        var state: SlotState
        /// The scope the observer was registered in (the scope in effect while
        /// it runs). Unretained: a scope cancels its observers before it goes
        /// away (`ComponentNode.cancelSubscriptions()`, also from its deinit).
        var scope: Unmanaged<ComponentNode>?
    }

    struct State {
        var slots: UnsafeMutablePointer<Slot>
        var count = 0
        var capacity = 0
        /// How many dispatches of this emitter are running (reentrant sends).
        var depth = 0
        var cancelledCount = 0
        var nextID: UInt64 = 1
        var last: Value?
        /// The scope of the observer currently being called; read through
        /// ``ObservationContext`` by registrations made inside observers.
        var currentScope: Unmanaged<ComponentNode>?
    }

    /// Never reassigned: reading it needs no exclusivity check.
    // nonisolated(unsafe) only lets the nonisolated `init` store the pointer
    // (emitters can be created anywhere, e.g. in a component's property
    // initialisers). The pointee is read and written solely by this class's
    // main-actor methods and its isolated deinit, so it is never shared
    // across threads.
    nonisolated(unsafe) private let state: UnsafeMutablePointer<State>

    nonisolated override init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State(slots: UnsafeMutablePointer<Slot>.allocate(capacity: 0)))
        super.init()
    }

    isolated deinit {
        // Every slot still in the buffer, cancelled or not, holds a retained
        // handler (compaction is what releases cancelled ones).
        let slots = state.pointee.slots
        let count = state.pointee.count
        let handlers = (0..<count).map { slots[$0].handler }
        slots.deinitialize(count: count)
        slots.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
        for handler in handlers {
            let cancellation = handler.takeUnretainedValue().onCancel
            handler.release()
            cancellation?()
        }
    }

    // MARK: Observing

    var lastValue: Value? { state.pointee.last }

    /// Sets the last value without sending it: a derived emitter starts with
    /// its upstream's current value, so `++=` on it replays that value.
    func prime(_ value: Value) {
        state.pointee.last = value
    }

    var observerCount: Int { state.pointee.count - state.pointee.cancelledCount }

    func add(
        once: Bool,
        _ handler: Handler<Value>
    ) -> Subscription {
        let scope = ObservationContext.currentScope
        if let scope, let diagnostic = ownershipViolation(observedFrom: scope) {
            scope.tree?.report(diagnostic)
            return Subscription()
        }
        if state.pointee.count == state.pointee.capacity { grow() }
        let id = state.pointee.nextID
        state.pointee.nextID &+= 1
        let index = state.pointee.count
        (state.pointee.slots + index).initialize(to: Slot(
            id: id,
            handler: .passRetained(handler),
            state: once ? .once : .live,
            scope: scope.map { Unmanaged.passUnretained($0) }
        ))
        state.pointee.count = index + 1
        let subscription = Subscription(storage: self, id: id)
        scope?.retain(subscription)
        return subscription
    }

    /// The README's rule: a component observes its own and its descendants'
    /// emitters, never an ancestor's.
    private func ownershipViolation(observedFrom scope: ComponentNode) -> Diagnostic? {
        guard let owner, owner !== scope, scope.isDescendant(of: owner) else { return nil }
        return Diagnostic(
            .ancestorObservation,
            "\(scope.path) observes an emitter of its ancestor \(owner.path); a component may observe only its own and its descendants' emitters. Observe it from \(owner.path) and pass the result down instead. The observer was not added.",
            path: scope.path
        )
    }

    private func grow() {
        let old = state.pointee.slots
        let count = state.pointee.count
        let capacity = Swift.max(4, state.pointee.capacity * 2)
        let new = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        // A running dispatch reads `state.slots` afresh on every step, so
        // moving the buffer under it is safe.
        new.moveInitialize(from: old, count: count)
        old.deallocate()
        state.pointee.slots = new
        state.pointee.capacity = capacity
    }

    // MARK: Sending

    /// Calls every observer registered before this call, in subscription order.
    func send(_ value: Value) {
        state.pointee.last = value
        let end = state.pointee.count
        guard end > 0 else { return }
        let savedScope = state.pointee.currentScope
        let savedCell = ObservationContext.enterDispatch(scopeCell: scopeCell)
        state.pointee.depth &+= 1
        var i = 0
        while i < end {
            let slot = state.pointee.slots[i]
            switch slot.state {
            case .live:
                state.pointee.currentScope = slot.scope
                slot.handler._withUnsafeGuaranteedRef { $0.body(value) }
            case .once:
                markCancelled(at: i)
                state.pointee.currentScope = slot.scope
                slot.handler._withUnsafeGuaranteedRef { $0.body(value) }
            case .cancelled:
                break
            }
            i &+= 1
        }
        state.pointee.depth &-= 1
        state.pointee.currentScope = savedScope
        ObservationContext.leaveDispatch(restoring: savedCell)
        if state.pointee.depth == 0, state.pointee.cancelledCount > 0 {
            compact()
        }
    }

    private var scopeCell: UnsafeMutablePointer<Unmanaged<ComponentNode>?> {
        let offset = MemoryLayout<State>.offset(of: \State.currentScope)!
        return (UnsafeMutableRawPointer(state) + offset)
            .assumingMemoryBound(to: Unmanaged<ComponentNode>?.self)
    }

    // MARK: Cancelling

    override func ownerWillBeDestroyed() {
        cancelAll()
    }

    func contains(id: UInt64) -> Bool {
        guard let index = index(of: id) else { return false }
        return state.pointee.slots[index].state != .cancelled
    }

    func cancel(id: UInt64) {
        guard let index = index(of: id), state.pointee.slots[index].state != .cancelled else { return }
        markCancelled(at: index)
        if state.pointee.depth == 0 { compact() }
    }

    /// Cancels every observer, e.g. because the owning component is destroyed.
    func cancelAll() {
        for i in 0..<state.pointee.count where state.pointee.slots[i].state != .cancelled {
            markCancelled(at: i)
        }
        if state.pointee.depth == 0 { compact() }
    }

    private func markCancelled(at index: Int) {
        state.pointee.slots[index].state = .cancelled
        state.pointee.cancelledCount &+= 1
    }

    /// Binary search: ids grow with every subscription and compaction keeps
    /// the order, so the buffer is sorted by id.
    private func index(of id: UInt64) -> Int? {
        var low = 0
        var high = state.pointee.count
        let slots = state.pointee.slots
        while low < high {
            let mid = (low &+ high) >> 1
            let candidate = slots[mid].id
            if candidate == id { return mid }
            if candidate < id { low = mid &+ 1 } else { high = mid }
        }
        return nil
    }

    /// Removes cancelled slots and releases their handlers. Runs only when no
    /// dispatch of this emitter is in progress.
    private func compact() {
        let slots = state.pointee.slots
        let count = state.pointee.count
        var released: [Unmanaged<Handler<Value>>] = []
        released.reserveCapacity(state.pointee.cancelledCount)
        var write = 0
        for read in 0..<count {
            if slots[read].state == .cancelled {
                released.append(slots[read].handler)
            } else {
                if write != read { slots[write] = slots[read] }
                write &+= 1
            }
        }
        (slots + write).deinitialize(count: count - write)
        state.pointee.count = write
        state.pointee.cancelledCount = 0
        // Release last: a handler's captures may run arbitrary deinit code
        // that touches this emitter again; the state is consistent by now.
        for handler in released {
            let cancellation = handler.takeUnretainedValue().onCancel
            handler.release()
            cancellation?()
        }
    }
}

/// One observer's closure. A class so that the dispatch loop can call it
/// through an unretained reference.
final class Handler<Value> {
    let body: @MainActor (Value) -> Void
    /// Called once when the observer is removed for any reason (used by
    /// ``Emitter/values`` to finish its stream).
    let onCancel: (@MainActor () -> Void)?

    init(_ body: @escaping @MainActor (Value) -> Void, onCancel: (@MainActor () -> Void)? = nil) {
        self.body = body
        self.onCancel = onCancel
    }
}

/// The type-erased face of an emitter's storage, for tokens and nodes.
@MainActor
protocol AnyEmitterStorage: AnyObject {
    func cancel(id: UInt64)
    func contains(id: UInt64) -> Bool
    func cancelAll()
}
