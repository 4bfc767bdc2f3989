/// What an event loop counts as it runs: loop callbacks, bytes, accepted
/// and open connections, child processes. Each count is one addition on
/// the hot path (through ``EventLoop/counters``, a pointer: no exclusivity
/// check); the health monitor and the metrics read them off the hot path.
struct LoopCounters {
    /// libuv callbacks into the app (reads, writes done, accepts, timers,
    /// signals, child exits, main-queue drains), the turn handles excepted.
    var events: UInt64 = 0
    /// Bytes read from every stream of the loop (sockets, pipes, terminal).
    var bytesRead: UInt64 = 0
    /// Bytes written to every stream of the loop.
    var bytesWritten: UInt64 = 0
    /// Connections accepted by the loop's TCP and Unix socket servers.
    var connectionsAccepted: UInt64 = 0
    /// Connections (accepted or connected) that began, and that closed.
    var connectionsOpened: UInt64 = 0
    var connectionsClosed: UInt64 = 0
    /// Child processes started, and reaped.
    var processesSpawned: UInt64 = 0
    var processesExited: UInt64 = 0

    /// Connections open now.
    var connectionsOpen: UInt64 { connectionsOpened &- connectionsClosed }
    /// Child processes running now.
    var processesRunning: UInt64 { processesSpawned &- processesExited }
}
