// The standard library's `withUnsafeBytes` and `withUTF8`, called through a
// function of this package.
//
// Swift 6 checks, at run time, the isolation of a main-actor closure handed
// to a function of a module built without strict concurrency checking, such
// as the standard library: `bytes.withUnsafeBytes { connection.write($0) }`
// in main-actor code calls `swift_task_isCurrentExecutor` on each call,
// about 270 instructions (profile_http.sh; 1.9% of a pipelined HTTP
// request). A closure handed to a function of this package is not checked
// (its isolation is checked at compile time), and the function hands the
// standard library a plain function value, which is not checked either.
// The closure still runs at once, on the caller's actor, as before.

extension Array where Element == UInt8 {
    /// `withUnsafeBytes(_:)` without the run-time isolation check of a
    /// main-actor closure (see the file's comment).
    @inlinable
    package func withUnsafeBytesInline<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(body)
    }
}

extension String {
    /// `withUTF8(_:)` without the run-time isolation check of a main-actor
    /// closure (see the file's comment).
    @inlinable
    package mutating func withUTF8Inline<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withUTF8(body)
    }
}
