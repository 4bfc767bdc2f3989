import ComposeApp
import Dispatch

/// `lifecycle`: reports its own lifecycle and that of a child, and waits
/// (an hour-long timer keeps it alive) for a signal. "ready" comes once the
/// whole tree appeared and the loop runs.
struct Lifecycle: Component {
    let inner = Inner()
    let keepAlive = LoopTimer(every: .seconds(3600))
    var observers: Void {
        didAppear += {
            say("appear lifecycle")
            DispatchQueue.main.async { say("ready") }
        }
        didDisappear += { say("disappear lifecycle") }
    }
}

struct Inner: Component {
    let ping = SignalEmitter()
    var observers: Void {
        didAppear += { say("appear inner") }
        didDisappear += { say("disappear inner") }
    }
}
