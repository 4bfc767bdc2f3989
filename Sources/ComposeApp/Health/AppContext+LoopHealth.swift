public import Compose

extension AppContext {
    /// The health of the app's event loop over the last minute: loop lag
    /// p50/p99/max, events per second, utilization (see ``LoopHealth``).
    /// `nil` in a test context (no loop) and in a live one whose runtime
    /// has not started sampling (``startLoopHealth(interval:)``).
    ///
    /// ```swift
    /// print(context.loopHealth?.description ?? "no loop")
    /// // lag p50 0.1 ms, p99 1.2 ms, max 201.3 ms; 850 events/s; 4% busy (60 s)
    /// ```
    public var loopHealth: LoopHealth? {
        eventLoop?.health?.snapshot
    }

    /// Starts sampling the loop's health, and the metrics with it: a
    /// housekeeping timer every `interval` that never keeps the app alive.
    /// It is a kernel timer (a `timerfd`) the loop watches, not a libuv
    /// timer, so the loop's waits carry no timeout for it.
    /// `StartupComponent.main()` does for every app; call it for a live
    /// context you made yourself (``live(name:logger:shutdownDeadline:forcedExitStatus:)``).
    /// Does nothing in a test context, or when sampling runs already.
    ///
    /// - Throws: the ``LoopError`` of `timerfd_create`, `timerfd_settime`
    ///   or `uv_poll_init`.
    public func startLoopHealth(interval: Duration = .milliseconds(100)) throws(LoopError) {
        guard let loop = eventLoop, loop.health == nil else { return }
        let monitor = try loop.startHealthMonitor(interval: interval)
        monitor.onSample = { [weak self] lateness in self?.metricsSampled(lateness: lateness) }
    }
}
