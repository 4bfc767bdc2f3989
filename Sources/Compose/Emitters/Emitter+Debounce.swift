extension EmitterProtocol {
    /// An emitter that sends a value of this one only after `duration` has
    /// passed without another value: each value restarts the wait, and only
    /// the last value of a burst goes out.
    ///
    /// A value sent at time `t` is delivered at `t + duration` (by
    /// `scheduler`) unless another value arrives before then, in which case
    /// it is dropped and the wait restarts for the new one. Delivery happens
    /// from the scheduler, on the main actor, outside the upstream's send.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters") with no
    /// starting last value. When its upstream subscription ends, a pending
    /// delivery is cancelled.
    ///
    /// ```swift
    /// let query = Emitter<String>()
    /// query.debounce(for: .milliseconds(300), scheduler: scheduler) += { text in
    ///     search(text)   // once the user paused typing for 300 ms
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - duration: How long the upstream must stay quiet.
    ///   - scheduler: The clock that times the wait.
    /// - Returns: An emitter of the values that were followed by quiet.
    public func debounce(for duration: Duration, scheduler: any Scheduler) -> Emitter<Value> {
        var pending: ScheduledAction?
        return derive(onUpstreamEnd: {
            if let action = pending { scheduler.cancel(action) }
            pending = nil
        }) { output in
            { value in
                if let action = pending { scheduler.cancel(action) }
                pending = scheduler.schedule(after: duration) {
                    pending = nil
                    output.send(value)
                }
            }
        }
    }
}
