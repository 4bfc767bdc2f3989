import ComposeApp

/// `timers`: a repeating 20 ms timer prints its ticks with the time since
/// it was started, a one-shot 50 ms timer prints once; after five ticks the
/// app shuts down. Both start on appear, right after the clock is read,
/// and after 40 ms of synchronous work (a slow startup): libuv's cached
/// "now" is that much behind then, and a timer counted from it would fire
/// early.
struct Timers: Component {
    let tick = LoopTimer(every: .milliseconds(20), startsWithComponent: false)
    let oneshot = LoopTimer(after: .milliseconds(50), startsWithComponent: false)
    let state = TimersState()
    var observers: Void {
        didAppear += {
            let busyUntil = ContinuousClock.now + .milliseconds(40)
            while ContinuousClock.now < busyUntil {}
            state.start = .now
            tick.start()
            oneshot.start()
        }
        tick += {
            state.ticks += 1
            say("tick \(state.ticks) \(state.elapsedMilliseconds)")
            if state.ticks == 5 {
                say("done")
                Application.shutdown()
            }
        }
        oneshot += { say("oneshot \(state.elapsedMilliseconds)") }
    }
}

@MainActor
final class TimersState {
    var start = ContinuousClock.now
    var ticks = 0

    /// Whole milliseconds since `start`, rounded down.
    var elapsedMilliseconds: Int64 {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
