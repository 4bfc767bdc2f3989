/// The non-generic face of a store's storage (``StoreBox``): what the
/// deferred-send list needs to hold stores of any state type.
///
/// A store written while a dispatch runs does not send at once: it joins the
/// list (``DeferredStoreSends``) and sends once, when the outermost dispatch
/// ends. The list is intrusive (each cell links to the next), so deferring a
/// store allocates nothing.
@MainActor
@usableFromInline
class StateCell: BoundObject {
    /// The next store in the deferred-send list (which holds a reference to
    /// each store in it: see ``DeferredStoreSends``).
    var nextDeferred: Unmanaged<StateCell>?
    /// Whether this store is in the deferred-send list.
    var isDeferred = false
    /// Sends the store's state if it changed since the last send:
    /// ``StoreBox/sendIfChanged()``, specialised for the state type where the
    /// store was made (a vtable call would run unspecialised generic code).
    let sendDeferred: @MainActor (StateCell) -> Void

    @usableFromInline
    nonisolated init(sendDeferred: @escaping @MainActor (StateCell) -> Void) {
        self.sendDeferred = sendDeferred
        super.init()
    }

    /// The type of the state.
    var stateType: Any.Type { Any.self }

    /// Puts this store in the deferred-send list, once.
    @usableFromInline
    final func deferSend() {
        guard !isDeferred else { return }
        isDeferred = true
        DeferredStoreSends.append(self)
    }
}

/// The stores written during the dispatch that is running, in the order of
/// their first write; each sends once when the outermost dispatch ends
/// (``EmitterStorage/dispatch(_:)`` and ``ObservationContext/withScope(_:_:)``
/// call ``flushIfOutermost()`` as they end, when
/// ``ObservationContext/hasDeferredWork`` is set).
///
/// Like ``ObservationContext/cell``, this is the state of the dispatch in
/// progress on the main actor, not of an app: it is empty whenever no
/// dispatch runs, and every dispatch runs to its end synchronously, so
/// two apps in one process never see each other's entries.
@MainActor
@usableFromInline
enum DeferredStoreSends {
    // The ends of the list, unmanaged: the list holds a +1 reference to
    // each store in it (taken in `append`, given back in the flush). Plain
    // words, so that reading and writing them needs no dynamic exclusivity
    // check, which the optimiser keeps for globals holding references.
    private static var head: Unmanaged<StateCell>?
    private static var tail: Unmanaged<StateCell>?
    private static var isFlushing = false

    static func append(_ cell: StateCell) {
        let entry = Unmanaged.passRetained(cell)
        if let tail {
            tail.takeUnretainedValue().nextDeferred = entry
        } else {
            head = entry
        }
        tail = entry
        ObservationContext.hasDeferredWork = true
    }

    /// Sends every deferred store, in order, once no dispatch runs any more
    /// (the scope cell is back to `nil`), then clears
    /// ``ObservationContext/hasDeferredWork``: every dispatch has ended, so
    /// every emitter that needed settling has settled. A store written by
    /// an observer of one of these sends joins the list and sends in this
    /// same loop; a dispatch that ends meanwhile leaves the list to it.
    @usableFromInline
    static func flushIfOutermost() {
        guard ObservationContext.cell == nil, !isFlushing else { return }
        isFlushing = true
        repeat {
            while let entry = head {
                let cell = entry.takeRetainedValue()
                head = cell.nextDeferred
                if head == nil { tail = nil }
                cell.nextDeferred = nil
                cell.isDeferred = false
                cell.sendDeferred(cell)
            }
            // Nodes destroyed during the dispatch that ended (or during
            // these sends) go now; their deinit may write a store again.
            ObservationContext.releaseDestroyedNodes()
        } while head != nil
        ObservationContext.hasDeferredWork = false
        isFlushing = false
    }
}
