// The app the ComposeApp tests start as a real process. The scenario comes
// from the environment (COMPOSE_FIXTURE); every event is a line on stdout.
import ComposeApp
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

@MainActor
func say(_ line: String) {
    print(line)
    fflush(nil)
}

let scenario = ProcessInfoLite.environment("COMPOSE_FIXTURE") ?? "lifecycle"

enum ProcessInfoLite {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Keeps the app alive and reports its own lifecycle.
struct Lifecycle: Component {
    let inner = Inner()
    let keepAlive = LoopTimer(every: .seconds(3600))
    var observers: Void {
        didAppear += { say("appear lifecycle") }
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

struct Idle: Component {
    var observers: Void { None }
}

@main
struct FixtureApp: RouterComponent {
    let idle = Idle()
    let lifecycle = Lifecycle()
    let router = Router(start: \Self.idle)

    var observers: Void {
        didAppear += { say("appear app") }
        didDisappear += { say("disappear app") }
        Application.willShutDown += { say("shutting down") }
    }
}

extension FixtureApp: StartupComponent {
    func willBindRootComponent() {
        say("willBind")
    }

    func didBindRootComponent() {
        say("didBind")
        do {
            try Application.open(scenario)
        } catch {
            say("error: \(error)")
        }
    }
}
