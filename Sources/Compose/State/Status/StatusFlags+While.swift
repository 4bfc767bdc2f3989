extension StatusFlags {
    /// Runs `operation` with `flag` on, and turns it off when the
    /// operation ends: when it returns, throws, or ends because its task
    /// was cancelled.
    ///
    /// ```swift
    /// let messages = try await status.while(.loading) {
    ///     try await client.fetchMessages()
    /// }
    /// ```
    ///
    /// Uses are counted: while two operations for `.loading` overlap, the
    /// flag goes on when the first begins and off when the last ends, and
    /// the flags' emitter sends only those two changes. A flag also
    /// turned on by ``set(_:)`` stays on until ``clear(_:)``.
    ///
    /// Cancellation is the operation's to honour: a cancelled task's flag
    /// goes off when its operation returns or throws (`CancellationError`
    /// from `Task.sleep`, an app clock's sleep, ...), since the work is
    /// going on until then.
    ///
    /// - Parameters:
    ///   - flag: The flag to hold on while `operation` runs.
    ///   - operation: The work, run on the main actor.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws, after turning the flag off.
    public func `while`<Result, Failure: Error>(
        _ flag: Flag,
        _ operation: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        hold(flag)
        defer { release(flag) }
        return try await operation()
    }
}
