/// Whether a loop driver is running, so that a driver called again from
/// code it runs (a loop callback, an observer, an action of a virtual
/// clock) stops the process instead of running the loop re-entrantly.
///
/// libuv documents `uv_run` as not reentrant, and the runtime relies on
/// it: its read path delivers to emitters without retaining the receiver,
/// so a driver run from inside a delivery could free the receiver under
/// the delivery that is still running. A virtual clock run from inside
/// one of its actions would, once the inner run returned, move time back.
/// So a re-entrant call is a broken invariant, not a misuse the call could
/// ignore: it stops the process in every build configuration, with a
/// message naming the call.
///
/// Each loop, virtual clock and test app keeps its own guard (never a
/// global: several apps run side by side in one process), and only the
/// drivers' entry points touch it, never the paths the loop runs.
package struct ReentryGuard {
    /// What the message says a re-entrant call came from, by default.
    package static let loopCode = "a loop callback or an observer"

    /// Whether the driver is running.
    package private(set) var isDriving = false

    /// A guard of a driver that is not running.
    package init() {}

    /// Marks the driver as running, or stops the process when it already
    /// is (see ``reentered(_:from:)``). Pair with ``leave()``.
    ///
    /// - Parameters:
    ///   - call: The driver's name, as its users write it
    ///     (`"TestApp.runUntilIdle()"`).
    ///   - code: What runs inside the driver, for the message.
    package mutating func enter(_ call: @autoclosure () -> String, from code: @autoclosure () -> String = loopCode) {
        if isDriving { Self.reentered(call(), from: code()) }
        isDriving = true
    }

    /// Marks the driver as no longer running.
    package mutating func leave() {
        isDriving = false
    }

    /// Stops the process: `call` was made from inside a running driver of
    /// the same loop.
    ///
    /// `fatalError` rather than `preconditionFailure`: both stop the
    /// process in every build configuration, but only `fatalError` keeps
    /// its message, the name of the call, in release builds.
    package static func reentered(_ call: String, from code: String = loopCode) -> Never {
        fatalError("\(call) called from inside \(code): the loop is not reentrant (uv_run); a delivery still running would go on with what the inner run freed. Drive the loop only from the code that owns it (a test's body, the app's main), never from code the loop runs: send to an emitter instead, and let the running driver deliver it.")
    }
}
