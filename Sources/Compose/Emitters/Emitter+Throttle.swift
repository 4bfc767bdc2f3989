extension EmitterProtocol {
    /// An emitter that sends at most one value of this one per `duration`:
    /// the first value at once, then what arrived meanwhile at the end of
    /// each window.
    ///
    /// Precisely:
    /// - When a value arrives and no window is open, it is sent at once and a
    ///   window of `duration` opens.
    /// - While a window is open, values are held, not sent. With `latest`
    ///   `true` each new value replaces the held one; with `latest` `false`
    ///   the first held value is kept and later ones are dropped.
    /// - When a window ends and a value is held, that value is sent and a new
    ///   window opens at that moment. When nothing is held, no window is open
    ///   any more and the next value goes out at once.
    ///
    /// So two values sent by the result are always at least `duration` apart,
    /// and the last value of a burst is never lost when `latest` is `true`.
    /// Window ends are timed by `scheduler`; values sent then are delivered
    /// on the main actor, outside the upstream's send.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters") with no
    /// starting last value. When its upstream subscription ends, the held
    /// value is dropped and the open window cancelled.
    ///
    /// ```swift
    /// let progress = Emitter<Double>()
    /// progress.throttle(for: .milliseconds(100), scheduler: scheduler) += { fraction in
    ///     render(fraction)   // at most ten times a second, never missing the last
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - duration: The length of a window.
    ///   - scheduler: The clock that times the windows.
    ///   - latest: Whether a window ends with its latest held value (`true`)
    ///     or its first (`false`).
    /// - Returns: An emitter of at most one value per window.
    public func throttle(
        for duration: Duration,
        scheduler: any Scheduler,
        latest: Bool = true
    ) -> Emitter<Value> {
        var state: ThrottleState<Value>?
        return derive(onUpstreamEnd: { state?.end() }) { (output: Emitter<Value>) -> @MainActor (Value) -> Void in
            let created = ThrottleState(output: output, duration: duration, scheduler: scheduler, latest: latest)
            state = created
            return { value in created.receive(value) }
        }
    }
}

/// The windows of one ``EmitterProtocol/throttle(for:scheduler:latest:)``.
@MainActor
private final class ThrottleState<Value> {
    private let output: Emitter<Value>
    private let duration: Duration
    private let scheduler: any Scheduler
    private let latest: Bool
    /// The end of the open window; `nil` when no window is open.
    private var window: ScheduledAction?
    private var held: Value?

    init(output: Emitter<Value>, duration: Duration, scheduler: any Scheduler, latest: Bool) {
        self.output = output
        self.duration = duration
        self.scheduler = scheduler
        self.latest = latest
    }

    func receive(_ value: Value) {
        if window == nil {
            // Open the window first: a value sent back from an observer of
            // this one is then held, not sent inside this send.
            openWindow()
            output.send(value)
        } else if latest || held == nil {
            held = value
        }
    }

    func end() {
        if let window { scheduler.cancel(window) }
        window = nil
        held = nil
    }

    private func openWindow() {
        window = scheduler.schedule(after: duration) { [self] in
            closeWindow()
        }
    }

    private func closeWindow() {
        window = nil
        guard let value = held else { return }
        held = nil
        openWindow()
        output.send(value)
    }
}
