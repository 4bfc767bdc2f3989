extension AppContext {
    /// A random number in `0..<1` from ``random``: the jitter of a backoff.
    ///
    /// ```swift
    /// let delay = backoff.delay(afterFailures: 3, jitterUnit: context.randomUnit())
    /// ```
    public func randomUnit() -> Double {
        // The top 53 bits, as Double.random(in: 0..<1) does.
        Double(random.next() >> 11) * 0x1p-53
    }
}
