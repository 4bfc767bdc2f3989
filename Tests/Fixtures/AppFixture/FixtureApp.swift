// The app the ComposeApp tests start as a real process. The scenario comes
// from the environment (COMPOSE_FIXTURE): didBindRootComponent() deep-links
// the root router to the child with that label. Every event is one line on
// stdout, flushed at once, so a test can wait for it.
import ComposeApp
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Prints one event line and flushes it.
@MainActor
func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// Reads an environment variable.
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

let scenario = environment("COMPOSE_FIXTURE") ?? "lifecycle"

/// The main thread, captured before the tree is bound.
@MainActor
enum MainThread {
    static var id: pthread_t?

    /// Whether the caller runs on the thread that started the app.
    static var isCurrent: Bool {
        guard let id else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }
}

/// Nothing; the route before a scenario is opened.
struct Idle: Component {
    var observers: Void { None }
}

@main
struct FixtureApp: RouterComponent {
    let idle = Idle()
    let lifecycle = Lifecycle()
    let selfShutdown = SelfShutdown()
    let earlyShutdown = EarlyShutdown()
    let deadline = Deadline()
    let timers = Timers()
    let unref = Unref()
    let signals = Signals()
    let stdin = StandardInputScenario()
    let async = AsyncScenario()
    let debounce = Debounce()
    let stress = Stress()
    let loopError = LoopErrorScenario()
    let tcp = TCPScenario()
    let process = ProcessScenario()
    let processGroup = ProcessGroupScenario()
    let files = FilesScenario()
    let readFiles = ReadFilesScenario()
    let echo = EchoScenario()
    let chatty = Chatty()
    let supervised = SupervisedScenario()
    let systemd = SystemdScenario()
    let workers = WorkersScenario()
    let reentry = ReentryScenario()
    let sendQueue = SendQueueScenario()
    let tls = TLSScenario()
    let router = Router(start: \Self.idle)

    var observers: Void {
        didAppear += { say("appear app") }
        didDisappear += { say("disappear app") }
        Application.willShutDown += { say("shutting down") }
    }
}

extension FixtureApp: StartupComponent {
    /// The shutdown deadline comes from COMPOSE_DEADLINE_MS (default 10 s);
    /// with `--workers N`, the first restart's delay from
    /// COMPOSE_WORKER_BACKOFF_MS (default 100 ms, growing to 4 times that)
    /// and the restart limit from COMPOSE_WORKER_RESTARTS (default 20).
    static var configuration: StartupConfiguration {
        let milliseconds = environment("COMPOSE_DEADLINE_MS").flatMap { Int($0) } ?? 10_000
        let backoff = environment("COMPOSE_WORKER_BACKOFF_MS").flatMap { Int($0) } ?? 100
        let restarts = environment("COMPOSE_WORKER_RESTARTS").flatMap { Int($0) } ?? 20
        return StartupConfiguration(
            shutdownDeadline: .milliseconds(milliseconds),
            workers: WorkerOptions(
                backoff: Backoff(initial: .milliseconds(backoff), maximum: .milliseconds(backoff * 4)),
                maximumRestarts: restarts
            )
        )
    }

    static func registerServices(in services: ServiceRegistry) {
        FixtureServices.register(in: services)
    }

    func willBindRootComponent() {
        MainThread.id = pthread_self()
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
