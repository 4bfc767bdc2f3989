// Removing observers. Outside a dispatch an observer is taken out at once;
// during one it is only marked, and the outermost dispatch removes the
// marked ones when it ends (`settle`), so the loop over the closures never
// sees its array change.
extension EmitterStorage {
    @usableFromInline
    func contains(id: UInt64) -> Bool {
        guard let index = index(of: id) else { return false }
        return !state.pointee.slots[index].isCancelled
    }

    /// Inlined into the token's cancel action (made where the observer was
    /// added, specialised for its value type), so a cancel is one call.
    @inlinable @inline(__always)
    func cancel(id: UInt64) {
        guard let index = index(of: id), !state.pointee.slots[index].isCancelled else { return }
        guard state.pointee.depth == 0 else {
            markCancelled(at: index)
            return
        }
        // Not dispatching: take the observer out at once (no allocation),
        // and let go of its closure once the state is consistent again.
        let slots = state.pointee.slots
        // `index < count`: neither subtraction can overflow.
        let after = state.pointee.count &- index &- 1
        (slots + index).deinitialize(count: 1)
        if after > 0 { (slots + index).moveInitialize(from: slots + index + 1, count: after) }
        state.pointee.count &-= 1
        // The closure is released when `removed` goes, after the hook. The
        // newest observer (subscribe, then cancel) needs no move.
        let removed = after == 0 ? state.pointee.bodies.removeLast() : state.pointee.bodies.remove(at: index)
        if !state.pointee.cancelHooks.isEmpty, let hook = state.pointee.cancelHooks.removeValue(forKey: id) {
            hook()
        }
        _ = consume removed
    }

    /// Cancels every observer, e.g. because the owning component is destroyed.
    @usableFromInline
    func cancelAll() {
        // The tracer (first, when traced) is not an observer of the app's.
        let first = state.pointee.isTraced ? 1 : 0
        for i in first..<state.pointee.count where !state.pointee.slots[i].isCancelled {
            markCancelled(at: i)
        }
        if state.pointee.depth == 0 { settle() }
    }

    @usableFromInline
    func markCancelled(at index: Int) {
        state.pointee.slots[index].state = .cancelled
        state.pointee.cancelledCount &+= 1
        state.pointee.needsSettling = true
        ObservationContext.hasDeferredWork = true
    }

    /// Binary search: ids grow with every subscription and removals keep the
    /// order, so the buffer is sorted by id.
    @inlinable
    func index(of id: UInt64) -> Int? {
        var high = state.pointee.count
        let slots = state.pointee.slots
        // The newest observer first: a short-lived observation is
        // usually the last one added.
        if high > 0, slots[high &- 1].id == id { return high &- 1 }
        var low = 0
        while low < high {
            let mid = (low &+ high) >> 1
            let candidate = slots[mid].id
            if candidate == id { return mid }
            if candidate < id { low = mid &+ 1 } else { high = mid }
        }
        return nil
    }

    /// Removes cancelled observers and lets go of their closures. Runs only when no
    /// dispatch of this emitter is in progress.
    @usableFromInline
    func compact() {
        let slots = state.pointee.slots
        let count = state.pointee.count
        var kept = ContiguousArray<ObserverBody<Value>>()
        kept.reserveCapacity(count - state.pointee.cancelledCount)
        var hooks: [@MainActor () -> Void] = []
        var write = 0
        for read in 0..<count {
            if slots[read].isCancelled {
                if let hook = state.pointee.cancelHooks.removeValue(forKey: slots[read].id) { hooks.append(hook) }
            } else {
                if write != read { slots[write] = slots[read] }
                kept.append(state.pointee.bodies[read])
                write &+= 1
            }
        }
        (slots + write).deinitialize(count: count - write)
        state.pointee.count = write
        state.pointee.cancelledCount = 0
        // Swap the closures last: dropping them may run arbitrary deinit
        // code that touches this emitter again; the state is consistent now.
        let removed = state.pointee.bodies
        state.pointee.bodies = kept
        for hook in hooks { hook() }
        _ = consume removed
    }
}
