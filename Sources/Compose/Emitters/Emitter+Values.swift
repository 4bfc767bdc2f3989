extension EmitterProtocol where Value: Sendable {
    /// The values this emitter sends from now on, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await line in input.values {
    ///     print(line)
    /// }
    /// ```
    ///
    /// Each use registers one observer (as `+=`, in the observation scope in
    /// effect) and buffers every value until the loop takes it. The sequence
    /// finishes when that observer is removed for any reason: the scope it
    /// was registered in or the emitter's owner is destroyed, or the emitter
    /// itself goes away. Leaving the loop (`break`, `return`, a thrown error)
    /// or cancelling the iterating task cancels the observer, shortly after,
    /// on the main actor. A value sent before the sequence was created is not
    /// replayed. Same as ``values(bufferingPolicy:)`` with `.unbounded`.
    public var values: AsyncStream<Value> {
        values(bufferingPolicy: .unbounded)
    }

    /// The values this emitter sends from now on, as an asynchronous sequence
    /// whose buffer follows `bufferingPolicy`.
    ///
    /// See ``values``. With a bounded policy, values the loop has not taken
    /// yet are dropped by the policy's rule once the buffer is full.
    ///
    /// ```swift
    /// for await position in mouse.values(bufferingPolicy: .bufferingNewest(1)) {
    ///     await draw(position)   // skips positions sent while drawing
    /// }
    /// ```
    ///
    /// - Parameter bufferingPolicy: How many values wait for the loop, and
    ///   which are dropped beyond that.
    /// - Returns: A stream of the values sent from now on.
    public func values(
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: bufferingPolicy)
        let source = emitter
        let subscription = source.observe(
            { value in continuation.yield(value) },
            onCancel: { continuation.finish() }
        )
        guard subscription.isActive else {
            // Refused (ancestor observation): nothing will ever come.
            continuation.finish()
            return stream
        }
        let id = subscription.id
        continuation.onTermination = { [weak storage = source.storage] _ in
            Task { @MainActor in storage?.cancel(id: id) }
        }
        return stream
    }
}
