extension EmitterProtocol {
    /// An emitter that sends every value of this one `duration` later, in the
    /// order they were sent.
    ///
    /// A value sent at time `t` is delivered at `t + duration` (by
    /// `scheduler`), on the main actor, outside the upstream's send. Values
    /// go out in the order they came in, even if the scheduler runs actions
    /// due at the same time in another order.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters") with no
    /// starting last value. When its upstream subscription ends, the values
    /// still waiting are dropped and their scheduled deliveries cancelled.
    ///
    /// ```swift
    /// let toast = Emitter<String>()
    /// toast.delay(for: .seconds(3), scheduler: scheduler) += { _ in
    ///     hideToast()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - duration: How long each value waits.
    ///   - scheduler: The clock that times the wait.
    /// - Returns: An emitter of the same values, later.
    public func delay(for duration: Duration, scheduler: any Scheduler) -> Emitter<Value> {
        // Values wait in arrival order; each scheduled action delivers the
        // oldest one, so order holds whatever order actions run in.
        var waiting: [Value] = []
        var pending: [UInt64: ScheduledAction] = [:]
        var nextKey: UInt64 = 0
        return derive(onUpstreamEnd: {
            for action in pending.values { scheduler.cancel(action) }
            pending = [:]
            waiting = []
        }) { output in
            { value in
                waiting.append(value)
                let key = nextKey
                nextKey &+= 1
                pending[key] = scheduler.schedule(after: duration) {
                    pending[key] = nil
                    guard !waiting.isEmpty else { return }
                    output.send(waiting.removeFirst())
                }
            }
        }
    }
}
