import ComposeApp

/// `selfShutdown`: shuts itself down with status 7 after 20 ms.
struct SelfShutdown: Component {
    let timer = LoopTimer(after: .milliseconds(20))
    var observers: Void {
        didAppear += { say("appear selfShutdown") }
        didDisappear += { say("disappear selfShutdown") }
        timer += { Application.shutdown(status: 7) }
    }
}
