import ComposeApp

/// `earlyShutdown`: asks for a shutdown (status 5) while the tree is still
/// being activated, before the loop runs. An hour-long timer would keep the
/// app alive if the request were lost.
struct EarlyShutdown: Component {
    let keepAlive = LoopTimer(every: .seconds(3600))
    var observers: Void {
        didAppear += {
            say("appear earlyShutdown")
            Application.shutdown(status: 5)
        }
        didDisappear += { say("disappear earlyShutdown") }
    }
}
