/// The shared reference box behind every ``Emitter``.
///
/// Copies of an emitter (and so copies of the component that holds it) share
/// one storage. It keeps the observers in subscription order in a flat buffer
/// so that a send costs about as much as calling the closures from an array:
///
/// - the mutable state lives behind a `let` pointer, so the dispatch loop pays
///   no dynamic exclusivity check per observer;
/// - the observers' closures sit in a `ContiguousArray` beside the slots.
///   The outermost send borrows that array in place (`inout`, so no retain)
///   and calls its elements, each a borrowed (+0), statically main-actor
///   call, like calling a closure array. While it runs nothing writes the
///   array: observers added meanwhile wait in `pending`, cancelled ones are
///   only marked. Both are settled when the outermost send ends. A send
///   from inside an observer of the same emitter takes copies (retains);
/// - observers cancelled while a dispatch runs are only marked; they are
///   removed when the outermost dispatch has finished ("compaction");
/// - `send` and `add` are `@inlinable`, so they are specialised for the
///   value type in the module that sends (no generic metadata lookups on the
///   hot path).
@MainActor
@usableFromInline
final class EmitterStorage<Value>: BoundObject, AnyEmitterStorage {

    /// Observer state flags, kept in a slot's two low bits (see `Slot`).
    @usableFromInline
    enum SlotState: UInt8 {
        case live = 0
        /// Called at most once (`!+=`), then cancelled.
        case once = 1
        case cancelled = 2
    }

    /// An observer's bookkeeping; its closure is at the same index in
    /// `State.bodies`.
    ///
    /// The state lives in the two low bits of the scope's address (Swift
    /// objects are at least 8-byte aligned, `heapObjectAlignment`; two tag
    /// bits need 4, asserted in `init`), so that a live
    /// observer's word is its scope as stored in `State.currentScope`: the
    /// dispatch loop loads one word, tests two bits and stores the word.
    /// 16 bytes, the stride of `State.bodies`, so that one offset walks both.
    @usableFromInline
    struct Slot {
        @usableFromInline var id: UInt64
        /// The scope the observer was registered in (the scope in effect while
        /// it runs), unretained: a scope cancels its observers before it goes
        /// away (`ComponentNode.cancelSubscriptions()`, also from its deinit);
        /// or'ed with the state's raw value.
        @usableFromInline var word: UInt

        @usableFromInline static var stateMask: UInt { 3 }

        @inlinable
        init(id: UInt64, state: SlotState, scope: Unmanaged<ComponentNode>?) {
            self.id = id
            let address = UInt(bitPattern: scope?.toOpaque())
            assert(address & Self.stateMask == 0, "a ComponentNode at an address whose low two bits are set: its observer state cannot be tagged there")
            self.word = address | UInt(state.rawValue)
        }

        /// Whether the observer was cancelled: one test of the word.
        @inlinable
        var isCancelled: Bool { word & UInt(SlotState.cancelled.rawValue) != 0 }

        @inlinable
        var state: SlotState {
            get { SlotState(rawValue: UInt8(truncatingIfNeeded: word & Self.stateMask)) ?? .cancelled }
            set { word = (word & ~Self.stateMask) | UInt(newValue.rawValue) }
        }

        /// The scope of a word, state bits cleared.
        @inlinable
        static func scope(ofWord word: UInt) -> Unmanaged<ComponentNode>? {
            UnsafeRawPointer(bitPattern: word & ~stateMask).map { Unmanaged.fromOpaque($0) }
        }
    }

    @usableFromInline
    struct State {
        /// The scope of the observer currently being called; read through
        /// ``ObservationContext`` by registrations made inside observers,
        /// through a pointer to this field (`scopeCell`).
        @usableFromInline var currentScope: Unmanaged<ComponentNode>?
        @usableFromInline var slots: UnsafeMutablePointer<Slot>
        /// The observers' closures, index for index with `slots`. Never
        /// written while a dispatch of this emitter runs (see `pending`).
        @usableFromInline var bodies = ContiguousArray<ObserverBody<Value>>()
        /// Closures of observers added while a dispatch runs; their slots
        /// follow those of `bodies`. Moved into `bodies` when the outermost
        /// dispatch ends, so empty whenever none runs.
        @usableFromInline var pending = ContiguousArray<ObserverBody<Value>>()
        /// Removal hooks, by observer id (few observers have one).
        @usableFromInline var cancelHooks: [UInt64: @MainActor () -> Void] = [:]
        @usableFromInline var count = 0
        @usableFromInline var capacity = 0
        /// How many dispatches of this emitter are running (reentrant sends).
        @usableFromInline var depth = 0
        @usableFromInline var cancelledCount = 0
        /// Whether `settle` has work: an observer was cancelled or added
        /// during a dispatch. Read only when
        /// ``ObservationContext/hasDeferredWork`` is set, which every write
        /// of `true` sets too.
        @usableFromInline var needsSettling = false
        @usableFromInline var nextID: UInt64 = 1
        @usableFromInline var last: Value?
        /// Whether sends are recorded as ``AppEvent``s: then the first
        /// observer (id 0, see `setTracing`) is the tracer.
        @usableFromInline var isTraced = false
        /// Never traced: lifecycle and router emitters, whose changes the
        /// tree and router record as events of their own.
        @usableFromInline var isTraceExempt = false
        /// The tracer's counts and cached name, made when the emitter is
        /// first traced and kept (with its count) while tracing is off.
        var tracer: SendTracer?

        @usableFromInline
        init(slots: UnsafeMutablePointer<Slot>) {
            self.slots = slots
        }
    }

    /// Never reassigned: reading it needs no exclusivity check.
    // nonisolated(unsafe) only lets the nonisolated `init` store the pointer
    // (emitters can be created anywhere, e.g. in a component's property
    // initialisers). The pointee is read and written solely by this class's
    // main-actor methods and its isolated deinit, so it is never shared
    // across threads.
    @usableFromInline
    nonisolated(unsafe) let state: UnsafeMutablePointer<State>

    nonisolated override init() {
        state = .allocate(capacity: 1)
        // Room for two observers: most emitters get one or two, and this
        // avoids a second allocation when the first one arrives.
        var initial = State(slots: UnsafeMutablePointer<Slot>.allocate(capacity: 2))
        initial.capacity = 2
        state.initialize(to: initial)
        super.init()
    }

    /// A storage whose last value is `value`, set without sending (a
    /// store's emitter starts with the store's state).
    nonisolated convenience init(primedWith value: Value) {
        self.init()
        state.pointee.last = value
    }

    isolated deinit {
        let hooks = state.pointee.cancelHooks.values
        state.pointee.slots.deinitialize(count: state.pointee.count)
        state.pointee.slots.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
        for hook in hooks { hook() }
    }

    // MARK: Observing

    @inlinable
    var lastValue: Value? { state.pointee.last }

    /// Sets the last value without sending it (derived emitters start with
    /// their upstream's).
    func prime(_ value: Value) {
        state.pointee.last = value
    }

    /// Sends counted while the tracer was on (see ``AppContext/countsSends``);
    /// `nil` for an emitter that is never traced (lifecycle, router).
    var countedSends: Int? {
        state.pointee.isTraceExempt ? nil : state.pointee.tracer?.sendCount ?? 0
    }

    @inlinable
    var observerCount: Int {
        state.pointee.count - state.pointee.cancelledCount - (state.pointee.isTraced ? 1 : 0)
    }

    /// Registers `handler` in the scope in effect, after checking the
    /// ancestor rule.
    @inlinable
    func add(once: Bool, _ handler: Handler<Value>) -> Subscription {
        let scope = ObservationContext.currentScope
        if let scope, !admits(scope) {
            return Subscription()
        }
        return insert(once: once, handler, scope: scope)
    }

    /// Registers `handler` in `scope` without checking the ancestor rule
    /// (a mirrored store's link to the store it mirrors). Inlined into the
    /// registration, so that the optimiser sees the handler's closure go
    /// into the observer list and moves it there (no retain and release).
    @inlinable @inline(__always)
    func insert(once: Bool, _ handler: Handler<Value>, scope: ComponentNode?) -> Subscription {
        if state.pointee.count == state.pointee.capacity { grow() }
        let id = state.pointee.nextID
        state.pointee.nextID &+= 1
        let index = state.pointee.count
        // No `scope.map { ... }`: a closure literal handed to a stdlib
        // function costs a dynamic main-actor check on every call.
        var unmanagedScope: Unmanaged<ComponentNode>?
        if let scope { unmanagedScope = Unmanaged.passUnretained(scope) }
        (state.pointee.slots + index).initialize(to: Slot(
            id: id,
            state: once ? .once : .live,
            scope: unmanagedScope
        ))
        if state.pointee.depth == 0 {
            state.pointee.bodies.append(handler.body)
        } else {
            state.pointee.pending.append(handler.body)
            state.pointee.needsSettling = true
            ObservationContext.hasDeferredWork = true
        }
        if let onCancel = handler.onCancel { state.pointee.cancelHooks[id] = onCancel }
        state.pointee.count = index &+ 1
        let subscription = Subscription(storage: self, id: id) { storage, id in
            unsafeDowncast(storage, to: EmitterStorage<Value>.self).cancel(id: id)
        }
        scope?.retain(subscription)
        return subscription
    }

    /// Whether an observer may be registered in `scope`. Reports and
    /// returns `false` when the scope was destroyed (an observer that
    /// destroyed its own component, or an ancestor, subscribing
    /// afterwards: nothing would ever cancel it), and for the README's
    /// rule: a component observes its own and its descendants' emitters,
    /// never an ancestor's.
    @usableFromInline
    func admits(_ scope: ComponentNode) -> Bool {
        if scope.isDestroyed {
            Diagnostics.report(Diagnostic(
                .observationInDestroyedScope,
                "An observer subscribed in the scope of \(scope.componentType) '\(scope.label)' after that component was destroyed (by this observer, or by code it called): nothing would ever cancel the subscription, so it was not added. Subscribe before destroying the component, or from one that lives on (its parent, for example).",
                path: scope.path
            ), in: scope)
            return false
        }
        guard let owner = ruleOwner, owner !== scope, scope.isDescendant(of: owner) else { return true }
        Diagnostics.report(Diagnostic(
            .ancestorObservation,
            "\(scope.path) observes an emitter of its ancestor \(owner.path); a component may observe only its own and its descendants' emitters. Observe it from \(owner.path) and pass the result down instead. The observer was not added.",
            path: scope.path
        ), in: scope)
        return false
    }

    @usableFromInline
    func grow() {
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

    /// Keeps `value` as the last value and calls every observer registered
    /// before this call, in subscription order.
    @inlinable
    func send(_ value: Value) {
        state.pointee.last = value
        dispatch(value)
    }

    /// Calls every observer registered before this call, in subscription
    /// order, without keeping `value`.
    ///
    /// The outermost dispatch (the common case) pays only for what it
    /// needs: the scope cell and the depth. Saving and restoring the
    /// observer scope is for nested sends alone (at depth 0 nothing reads
    /// this emitter's scope field), and the deferred work of cancellations
    /// and additions made meanwhile, and of stores written meanwhile, is
    /// one global flag (``ObservationContext/hasDeferredWork``).
    @inlinable
    func dispatch(_ value: Value) {
        dispatch(value, inliningTheLoop: false)
    }

    /// ``dispatch(_:)`` with the observer loop inlined into the outermost
    /// dispatch, for the send a socket's read callback makes on every
    /// chunk (``Emitter/sendWithoutKeeping(_:unretained:)``): the
    /// optimiser leaves the loop out of line there, at the cost of a call
    /// with its prologue and epilogue per chunk.
    @inlinable
    func dispatchInlined(_ value: Value) {
        dispatch(value, inliningTheLoop: true)
    }

    /// The body of both: `inliningTheLoop` is a constant at each call, so
    /// each gets its own loop call and nothing else differs.
    @inlinable @inline(__always)
    func dispatch(_ value: Value, inliningTheLoop: Bool) {
        let end = state.pointee.count
        guard end > 0 else { return }
        let savedCell = ObservationContext.enterDispatch(scopeCell: scopeCell)
        if state.pointee.depth == 0 {
            state.pointee.depth = 1
            // `bodies` is not written until this dispatch ends (additions
            // go to `pending`, cancellations only mark slots, compaction
            // waits), so borrowing it in place is safe. A nested send of
            // this emitter only reads it.
            if inliningTheLoop {
                callObserversInlined(&state.pointee.bodies, upTo: end, with: value)
            } else {
                callObservers(&state.pointee.bodies, upTo: end, with: value)
            }
            state.pointee.depth = 0
            ObservationContext.leaveDispatch(restoring: savedCell)
            if ObservationContext.hasDeferredWork { finishDispatch() }
        } else {
            // Nothing to settle or flush: the outer dispatch of this
            // emitter still runs, and does both when it ends.
            let savedScope = state.pointee.currentScope
            state.pointee.depth &+= 1
            sendNested(value, upTo: end)
            state.pointee.depth &-= 1
            state.pointee.currentScope = savedScope
            ObservationContext.leaveDispatch(restoring: savedCell)
        }
    }

    /// The end of an outermost dispatch of this emitter while some dispatch
    /// left work: this emitter settles its own, and stores written meanwhile
    /// send if no other dispatch runs any more.
    @usableFromInline
    func finishDispatch() {
        if state.pointee.needsSettling { settle() }
        DeferredStoreSends.flushIfOutermost()
    }

    /// The loop of the outermost dispatch: observers `0..<end`, all in
    /// `bodies` (nothing is pending when a dispatch starts). Inlined into
    /// `send`: out of line, its prologue and epilogue cost a send to one
    /// observer a fifth of its instructions (callgrind).
    @inlinable
    func callObservers(_ bodies: inout ContiguousArray<ObserverBody<Value>>, upTo end: Int, with value: Value) {
        callObserversInlined(&bodies, upTo: end, with: value)
    }

    /// The loop of ``callObservers(_:upTo:with:)``, always inlined: there,
    /// where the optimiser decides (a store's send is cheaper with its
    /// choice), and in ``dispatchInlined(_:)``, where it is not left to it.
    @inlinable @inline(__always)
    func callObserversInlined(_ bodies: inout ContiguousArray<ObserverBody<Value>>, upTo end: Int, with value: Value) {
        var i = 0
        while i < end {
            // Reloaded each time: an observer added meanwhile may move the slots.
            var word = state.pointee.slots[i].word
            // One test for the common case, a live observer, whose word is
            // its scope.
            if word & Slot.stateMask != 0 {
                if word & UInt(SlotState.cancelled.rawValue) != 0 {
                    i &+= 1
                    continue
                }
                markCancelled(at: i)
                word &= ~Slot.stateMask
            }
            // One call site: a second one makes the optimiser copy (retain)
            // the closure and keep this loop out of line.
            state.pointee.currentScope = Slot.scope(ofWord: word)
            bodies[i].call(value)
            i &+= 1
        }
    }

    /// A send from inside a dispatch of this emitter: observers `0..<end`,
    /// including those added since the outer dispatch began (pending).
    /// Out of line (still specialised): rare, and it keeps `send` small.
    @inlinable @inline(never)
    func sendNested(_ value: Value, upTo end: Int) {
        let bodies = state.pointee.bodies
        let pending = state.pointee.pending
        var i = 0
        while i < end {
            let slot = state.pointee.slots[i]
            if !slot.isCancelled {
                if slot.state == .once { markCancelled(at: i) }
                state.pointee.currentScope = Slot.scope(ofWord: slot.word)
                if i < bodies.count {
                    bodies[i].call(value)
                } else {
                    pending[i - bodies.count].call(value)
                }
            }
            i &+= 1
        }
    }

    /// Ends the outermost dispatch's deferred work: pending observers join
    /// `bodies`, cancelled ones are removed.
    @usableFromInline
    func settle() {
        state.pointee.needsSettling = false
        if !state.pointee.pending.isEmpty {
            state.pointee.bodies.append(contentsOf: state.pointee.pending)
            state.pointee.pending.removeAll(keepingCapacity: true)
        }
        if state.pointee.cancelledCount > 0 { compact() }
    }

    /// Where ``ObservationContext`` finds the scope of the observer being
    /// called: the state's `currentScope` field, at the offset the
    /// compiler gave it (no assumption about the layout; the offset of a
    /// stored property folds to a constant where this is specialised).
    @inlinable
    var scopeCell: UnsafeMutablePointer<Unmanaged<ComponentNode>?> {
        (UnsafeMutableRawPointer(state) + MemoryLayout<State>.offset(of: \State.currentScope)!)
            .assumingMemoryBound(to: Unmanaged<ComponentNode>?.self)
    }

    // MARK: Tracing

    // A traced emitter records its sends through an observer of its own,
    // put first (id 0, below every subscription's id, so the slots stay
    // sorted): it records each send before any observer reacts to it, and
    // an emitter that is not traced pays nothing on its sends.

    override func claim(by node: ComponentNode) {
        let previous = owner
        super.claim(by: node)
        guard owner === node else { return }
        // A new owner: a new path, maybe another app.
        if previous !== node, let tracer = state.pointee.tracer {
            tracer.name = nil
            if state.pointee.isTraced { tracer.events = node.context?.eventTrace }
        }
        if let context = node.context, context.eventTrace.isInstalled {
            setTracing(true)
        }
    }

    override func setTracing(_ isOn: Bool) {
        let wanted = isOn && !state.pointee.isTraceExempt
        // Not while this emitter dispatches: its observers are in use.
        guard wanted != state.pointee.isTraced, state.pointee.depth == 0 else { return }
        if wanted {
            let tracer = state.pointee.tracer ?? SendTracer()
            state.pointee.tracer = tracer
            tracer.events = owner?.context?.eventTrace
            if state.pointee.count == state.pointee.capacity { grow() }
            let slots = state.pointee.slots
            if state.pointee.count > 0 { (slots + 1).moveInitialize(from: slots, count: state.pointee.count) }
            slots.initialize(to: Slot(id: 0, state: .live, scope: nil))
            // Counting touches only the tracer (not generic); only a send
            // that is recorded goes into this generic class's code.
            state.pointee.bodies.insert(ObserverBody { [unowned self] value in
                tracer.sendCount &+= 1
                guard let events = tracer.events else { return }
                events.sends &+= 1
                if events.isOn { self.record(value, tracer: tracer, events: events) }
            }, at: 0)
            state.pointee.count += 1
        } else if state.pointee.count > 0, state.pointee.slots[0].id == 0 {
            let slots = state.pointee.slots
            slots.deinitialize(count: 1)
            if state.pointee.count > 1 { slots.moveInitialize(from: slots + 1, count: state.pointee.count - 1) }
            state.pointee.count -= 1
            state.pointee.bodies.remove(at: 0)
            state.pointee.tracer?.events = nil
        }
        state.pointee.isTraced = wanted
    }

    /// Never records this emitter's sends (see `isTraceExempt`).
    func exemptFromTracing() {
        setTracing(false)
        state.pointee.isTraceExempt = true
    }

    /// Records a send as an ``AppEvent``: the app records events.
    @inline(never)
    private func record(_ value: Value, tracer: SendTracer, events: EventTrace) {
        guard let owner, let context = owner.context else { return }
        let name = eventPath(tracer: tracer, owner: owner)
        var json: String?
        if let capture = events.capture, capture.covers(name), let encodable = value as? any Encodable {
            json = capture.encode(encodable)
        }
        context.record(.sent, path: name, value: AppEvent.describe(value), json: json)
    }

    /// The emitter's path in events (`chat.server.connections`), made once
    /// and kept by `tracer`.
    func eventPath(tracer: SendTracer, owner: ComponentNode) -> String {
        if let known = tracer.name { return known }
        let name = owner.emitterLabel(of: self).map { owner.path + "." + $0 } ?? owner.path + ".<emitter>"
        tracer.name = name
        return name
    }

    // MARK: Cancelling (see EmitterStorage+Cancelling.swift)

    override func ownerWillBeDestroyed() {
        cancelAll()
    }
}
