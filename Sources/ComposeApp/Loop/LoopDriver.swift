internal import CLibUV
import Compose

/// Drives the event loop of the running context (``AppContext/current``)
/// from a test, synchronously, on the main actor.
///
/// A `@MainActor` test cannot `await` while the loop blocks the main
/// thread, so I/O tests run the loop one iteration at a time until what
/// they wait for has happened (an event-driven condition, not a sleep); the
/// timeout only guards against a hang. The test runs inside a live
/// context's `run`, so the resources it makes use that context's loop.
///
/// ```swift
/// @_spi(Testing) import ComposeApp
///
/// let server = TCPServer(port: 0)
/// try server.listen()
/// ...
/// #expect(LoopDriver.run(until: { received.count == 3 }))
/// ```
@_spi(Testing)
@MainActor
public enum LoopDriver {
    /// Runs loop iterations until `condition` holds or `timeout` passes.
    /// Returns whether the condition held (`false` at once outside a live
    /// context).
    ///
    /// Called from code the loop runs (a loop callback, an observer), it
    /// stops the process: the loop is not reentrant (`uv_run`).
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: Duration = .seconds(10)) -> Bool {
        guard let loop = AppContext.current?.eventLoop else { return condition() }
        loop.preconditionNotRunning("LoopDriver.run(until:timeout:)")
        let deadline = loop.nanoseconds + UInt64(timeout.components.seconds) * 1_000_000_000
            + UInt64(timeout.components.attoseconds / 1_000_000_000)
        // A timer bounds each blocking iteration so the timeout is honoured
        // even when no I/O arrives.
        let guardTimer = try? TimerHandle(loop: loop)
        guardTimer?.start(after: .milliseconds(10), repeat: .milliseconds(10)) {}
        defer { guardTimer?.close(); loop.runOnce(blocking: false) }
        while !condition() {
            if loop.nanoseconds > deadline { return false }
            loop.runOnce(blocking: true)
        }
        return true
    }

    /// Runs loop iterations until nothing is pending right now (callbacks of
    /// closed handles included). Called from code the loop runs, it stops
    /// the process, as ``run(until:timeout:)``.
    public static func settle() {
        guard let loop = AppContext.current?.eventLoop else { return }
        loop.preconditionNotRunning("LoopDriver.settle()")
        loop.runOnce(blocking: false)
        loop.runOnce(blocking: false)
    }

    /// A check, callable from any thread, of whether its caller runs on the
    /// thread of the running context's loop: the thread every loop call
    /// must be made on (handles assert it in debug builds). `nil` outside a
    /// live context.
    public static func loopThreadCheck() -> (@Sendable () -> Bool)? {
        guard let loop = AppContext.current?.eventLoop else { return nil }
        return { loop.isOnLoopThread }
    }

    /// Pins the running context's loop to the calling thread, as the
    /// runtime pins an app's loop, or unpins it (see
    /// `EventLoop.isOnLoopThread`): for a test of the loop-thread check,
    /// which must unpin before it ends (the main actor may move threads
    /// between tests).
    public static func pinLoopToCurrentThread(_ pinned: Bool = true) {
        AppContext.current?.eventLoop?.pinToCurrentThread(pinned)
    }

    /// How many write requests the running context's loop made so far
    /// (debug builds only: 0 in release)
    /// (`uv_try_write` and `uv_write` calls).
    public static var writeCalls: Int {
        AppContext.current?.eventLoop?.writeCalls ?? 0
    }

    /// The most bytes one stream of the running context's loop delivered
    /// in one loop turn so far (debug builds only: 0 in release).
    public static var largestReadInTurn: Int {
        AppContext.current?.eventLoop?.largestReadInTurn ?? 0
    }

    /// The read budget of the running context's loop, per stream and turn.
    public static var readBudgetPerTurn: Int {
        get { AppContext.current?.eventLoop?.readBudgetPerTurn ?? 0 }
        set { AppContext.current?.eventLoop?.readBudgetPerTurn = newValue }
    }

    /// The most lines one reader (a child's output, a connection's
    /// `lines`, standard input) of the running context's loop delivered in
    /// one loop turn so far (debug builds only: 0 in release).
    public static var mostLinesInTurn: Int {
        AppContext.current?.eventLoop?.mostLinesInTurn ?? 0
    }

    /// The line budget of the running context's loop, per reader and turn.
    public static var lineBudgetPerTurn: Int {
        get { AppContext.current?.eventLoop?.lineBudgetPerTurn ?? 0 }
        set { AppContext.current?.eventLoop?.lineBudgetPerTurn = newValue }
    }

    /// The busy-polling window of the running context's loop (see
    /// `StartupConfiguration.busyPolling`); `.zero` when off.
    public static var busyPolling: Duration {
        get { AppContext.current?.eventLoop?.busyPolling ?? .zero }
        set { AppContext.current?.eventLoop?.busyPolling = newValue }
    }

    /// Whether the running context's loop decided, the last time it was
    /// about to wait, to poll without waiting (its last input is less than
    /// the busy-polling window old).
    public static var isBusyPolling: Bool {
        AppContext.current?.eventLoop?.isBusyPolling ?? false
    }

    /// The loop turn of the running context's loop: counted up each time
    /// the loop is about to wait (or, busy polling, to poll).
    public static var turn: Int {
        AppContext.current?.eventLoop?.turn ?? 0
    }

    /// The kernel's `TCP_NODELAY`, `SO_KEEPALIVE` and `TCP_KEEPIDLE` of a
    /// connection's socket (`nil` for a simulated one).
    public static func socketOptions(of connection: TCPConnection) -> (noDelay: Bool, keepAlive: Bool, keepIdle: Int32)? {
        guard let handle = connection.transport.streamHandle as? TCPHandle else { return nil }
        return handle.socketOptions
    }

    /// How many handles are open (not closing) on the loop.
    public static var openHandleCount: Int {
        AppContext.current?.eventLoop?.openHandleCount ?? 0
    }

    /// Closes every handle of the running context's loop, lets their close
    /// callbacks run and closes the loop. Returns `false` if a handle was
    /// left open. For the end of a test that made a live context.
    @discardableResult
    public static func tearDown(_ context: AppContext) -> Bool {
        context.eventLoop?.tearDown() ?? true
    }
}
