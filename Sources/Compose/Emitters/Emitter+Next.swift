extension EmitterProtocol where Value: Sendable {
    /// Waits for the next value this emitter sends and returns it.
    ///
    /// ```swift
    /// let reply = await response.next()
    /// ```
    ///
    /// Registers a one-shot observer (as `!+=`, in the observation scope in
    /// effect). Returns `nil` instead of a value when that observer is removed
    /// before a value comes (its scope or the emitter's owner is destroyed,
    /// or the emitter goes away) or when the waiting task is cancelled; in
    /// the last case the observer is removed too. A value sent before the
    /// call is not returned.
    ///
    /// - Returns: The next value, or `nil` if none will come to this call.
    public func next() async -> Value? {
        let waiter = NextValueWaiter<Value>()
        let source = emitter
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                guard !Task.isCancelled else {
                    continuation.resume(returning: nil)
                    return
                }
                waiter.continuation = continuation
                let subscription = source.storage.add(once: true, Handler(
                    { value in waiter.resume(returning: value) },
                    onCancel: { waiter.resume(returning: nil) }
                ))
                if subscription.isActive {
                    waiter.subscription = subscription
                } else {
                    waiter.resume(returning: nil)
                }
            }
        } onCancel: {
            Task { @MainActor in waiter.resume(returning: nil) }
        }
    }
}

/// The state of one ``EmitterProtocol/next()`` call: resumes its continuation
/// exactly once, whichever of value, removal or cancellation comes first.
@MainActor
private final class NextValueWaiter<Value: Sendable> {
    var continuation: CheckedContinuation<Value?, Never>?
    var subscription: Subscription?

    func resume(returning value: Value?) {
        guard let continuation else { return }
        self.continuation = nil
        let subscription = self.subscription
        self.subscription = nil
        subscription?.cancel()
        continuation.resume(returning: value)
    }
}
