import ComposeApp
import Dispatch

/// `signals`: SIGHUP and SIGUSR1 as emitters. "ready" comes once the loop
/// runs, after the handlers were installed.
struct Signals: Component {
    let hangup = ProcessSignal(.hangup)
    let user1 = ProcessSignal(.user1)
    let keepAlive = LoopTimer(every: .seconds(3600))
    var observers: Void {
        hangup += { _ in say("hup") }
        user1 += { _ in say("usr1") }
        didAppear += { DispatchQueue.main.async { say("ready") } }
    }
}
