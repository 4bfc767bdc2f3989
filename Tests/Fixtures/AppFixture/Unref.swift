import ComposeApp

/// `unref`: only a timer that does not keep the loop alive, so the app has
/// nothing to do and exits by itself.
struct Unref: Component {
    let housekeeping = LoopTimer(every: .milliseconds(5), keepsLoopAlive: false)
    var observers: Void {
        didAppear += { say("appear unref") }
        housekeeping += { say("tick") }
    }
}
