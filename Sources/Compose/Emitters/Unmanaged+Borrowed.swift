extension Unmanaged {
    /// Calls `body` with the object borrowed: no retain before the call and
    /// no release after it. The caller proves that something else keeps
    /// the object alive until `body` returns (each caller says what).
    ///
    /// The standard library's `_withUnsafeGuaranteedRef`, behind a function
    /// compiled in Swift 6 mode: a main-actor closure literal handed to the
    /// standard library (compiled in Swift 5 mode) gets a runtime executor
    /// check on every call, about 300 instructions; handed to this function
    /// it is an ordinary non-escaping closure that runs where its caller
    /// runs, and `_withUnsafeGuaranteedRef` receives a function value, not
    /// a literal. No isolation is cast away. Listed in docs/unsafe.md.
    @inlinable @inline(__always)
    package func withBorrowed<Result>(_ body: (Instance) -> Result) -> Result {
        _withUnsafeGuaranteedRef(body)
    }
}
