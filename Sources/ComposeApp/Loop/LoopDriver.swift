internal import CLibUV
import Compose

/// Drives the event loop from a test, synchronously, on the main actor.
///
/// A `@MainActor` test cannot `await` while the loop blocks the main
/// thread, so I/O tests run the loop one iteration at a time until what
/// they wait for has happened (an event-driven condition, not a sleep); the
/// timeout only guards against a hang.
///
/// ```swift
/// @_spi(Testing) import ComposeApp
///
/// let server = try TCPServer(port: 0)
/// ...
/// #expect(LoopDriver.run(until: { received.count == 3 }))
/// ```
@_spi(Testing)
@MainActor
public enum LoopDriver {
    /// Runs loop iterations until `condition` holds or `timeout` passes.
    /// Returns whether the condition held.
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: Duration = .seconds(10)) -> Bool {
        let loop = EventLoop.main
        let deadline = loop.nanoseconds + UInt64(timeout.components.seconds) * 1_000_000_000
            + UInt64(timeout.components.attoseconds / 1_000_000_000)
        // A timer bounds each blocking iteration so the timeout is honoured
        // even when no I/O arrives.
        let guardTimer = try? TimerHandle(loop: loop)
        guardTimer?.start(after: .milliseconds(10), repeat: .milliseconds(10)) {}
        defer { guardTimer?.close(); uv_run(loop.uv, UV_RUN_NOWAIT) }
        while !condition() {
            if loop.nanoseconds > deadline { return false }
            uv_run(loop.uv, UV_RUN_ONCE)
        }
        return true
    }

    /// Runs loop iterations until nothing is pending right now (callbacks of
    /// closed handles included).
    public static func settle() {
        uv_run(EventLoop.main.uv, UV_RUN_NOWAIT)
        uv_run(EventLoop.main.uv, UV_RUN_NOWAIT)
    }

    /// How many handles are open (not closing) on the loop.
    public static var openHandleCount: Int {
        EventLoop.main.openHandleCount
    }
}
