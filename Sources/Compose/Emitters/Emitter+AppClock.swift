extension EmitterProtocol {
    /// ``debounce(for:scheduler:)`` on the app's clock: the scheduler of the
    /// running app (``AppContext/current``), which is libuv timers in an
    /// app and virtual time in a test context.
    ///
    /// ```swift
    /// query.debounce(for: .milliseconds(300)) += { text in search(text) }
    /// ```
    ///
    /// Outside an app with a clock, this reports a ``Diagnostic/Code/noScheduler``
    /// diagnostic and returns an emitter that never sends.
    public func debounce(for duration: Duration) -> Emitter<Value> {
        guard let scheduler = appScheduler("debounce(for:)") else { return Emitter() }
        return debounce(for: duration, scheduler: scheduler)
    }

    /// ``delay(for:scheduler:)`` on the app's clock (see ``debounce(for:)``).
    public func delay(for duration: Duration) -> Emitter<Value> {
        guard let scheduler = appScheduler("delay(for:)") else { return Emitter() }
        return delay(for: duration, scheduler: scheduler)
    }

    /// ``throttle(for:scheduler:latest:)`` on the app's clock (see
    /// ``debounce(for:)``).
    public func throttle(for interval: Duration, latest: Bool = true) -> Emitter<Value> {
        guard let scheduler = appScheduler("throttle(for:)") else { return Emitter() }
        return throttle(for: interval, scheduler: scheduler, latest: latest)
    }

    private func appScheduler(_ call: String) -> (any Scheduler)? {
        let context = emitter.ownerContext ?? AppContext.current
        if let scheduler = context?.scheduler { return scheduler }
        let diagnostic = Diagnostic(.noScheduler, "\(call) needs the app's clock, and there is none here: use it in an app's code (TestApp, TestHost or StartupComponent), or pass a scheduler.")
        if let context { context.report(diagnostic) } else { Diagnostics.report(diagnostic) }
        return nil
    }
}
