import ComposeApp

/// `deadline`: starts a repeating timer that no component owns, so the
/// graceful shutdown cannot close it and only the deadline ends the app.
struct Deadline: Component {
    /// The timer nobody closes (held here, not by a component).
    @MainActor static var stray: LoopTimer?

    var observers: Void {
        didAppear += {
            let timer = LoopTimer(every: .milliseconds(100), keepsLoopAlive: true)
            timer.start()
            Deadline.stray = timer
            say("appear deadline")
        }
        didDisappear += { say("disappear deadline") }
    }
}
