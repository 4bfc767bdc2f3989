public import Compose
public import Logging

extension AppContext {
    /// A live context: an event loop of its own, a clock on that loop's
    /// timers, and `logger`. `StartupComponent.main()` makes one for the
    /// app; make one yourself to run real I/O outside `main()`, for example
    /// in a test, with the resources made or bound inside its `run(_:)`.
    ///
    /// ```swift
    /// let context = try AppContext.live(name: "probe")
    /// try context.run { try server.listen() }   // on the context's loop
    /// ```
    ///
    /// - Throws: `uv_loop_init`'s ``LoopError``.
    public static func live(
        name: String = "app",
        logger: Logger = Logger(label: "compose"),
        shutdownDeadline: Duration = .seconds(10),
        forcedExitStatus: Int32 = 3
    ) throws(LoopError) -> AppContext {
        let loop = try EventLoop(logger: logger)
        let context = AppContext(
            name: name,
            scheduler: LoopScheduler(loop: loop),
            logger: logger,
            shutdownDeadline: shutdownDeadline,
            forcedExitStatus: forcedExitStatus
        )
        context.runtime = loop
        return context
    }
}
