import ComposeApp
import ComposeTesting
import Testing

/// A test driver called from code it runs (an observer, a timer, an action
/// of the virtual clock) is a precondition failure naming the call: the
/// loop it stands for is not reentrant. Each case runs in a child process
/// (an exit test) and must die there with that message.
@Suite struct TestDriverReentryTests {
    @Test func runUntilIdleFromATimerObserverIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ReentryScenario.run(.runUntilIdleFromTimer)
        }
        #expect(result.map(ReentryScenario.stderr)?.contains("TestApp.runUntilIdle() called from inside an action of the virtual clock (a timer, a delivery) or an observer: the loop is not reentrant (uv_run)") == true)
    }

    @Test func advanceFromAnObserverOfTheTestsOwnSendIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ReentryScenario.run(.advanceFromRunBody)
        }
        #expect(result.map(ReentryScenario.stderr)?.contains("TestApp.advance(by:) called from inside a loop callback or an observer: the loop is not reentrant (uv_run)") == true)
    }

    @Test func runFromAConnectionObserverIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ReentryScenario.run(.runFromConnection)
        }
        #expect(result.map(ReentryScenario.stderr)?.contains("TestApp.run(_:) called from inside") == true)
    }

    @Test func theVirtualClockAdvancedFromItsOwnActionIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ReentryScenario.run(.schedulerFromItsAction)
        }
        #expect(result.map(ReentryScenario.stderr)?.contains("VirtualScheduler.runDue() called from inside an action of the virtual clock") == true)
    }

    @Test func aTestHostAdvancedFromATimerIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await ReentryScenario.run(.testHostFromTimer)
        }
        #expect(result.map(ReentryScenario.stderr)?.contains("TestHost.advance(by:) called from inside an action of the virtual clock") == true)
    }

    /// The guard is per app: an observer of one app may drive another
    /// (two apps side by side in one test), and a driver called again
    /// after the previous one returned runs as usual.
    @MainActor
    @Test func anObserverOfOneAppMayDriveAnother() {
        let other = TestApp(root: Ticking(box: AppBox()))
        let box = AppBox()
        box.app = other
        let app = TestApp(root: Ticking(box: box))
        var drove = 0
        box.onTick = { other in
            other.advance(by: .seconds(1))
            drove += 1
        }
        app.advance(by: .seconds(1))
        app.advance(by: .seconds(1))
        #expect(drove == 2)
        #expect(other.now == .seconds(2))
    }
}

/// What the child processes of ``TestDriverReentryTests`` do.
enum ReentryScenario {
    case runUntilIdleFromTimer
    case advanceFromRunBody
    case runFromConnection
    case schedulerFromItsAction
    case testHostFromTimer

    /// The child's standard error, as text.
    static func stderr(_ result: ExitTest.Result) -> String {
        String(decoding: result.standardErrorContent, as: UTF8.self)
    }

    @MainActor
    static func run(_ scenario: Self) {
        switch scenario {
        case .runUntilIdleFromTimer:
            let box = AppBox()
            box.onTick = { $0.runUntilIdle() }
            let app = TestApp(root: Ticking(box: box))
            box.app = app
            app.advance(by: .seconds(1))
        case .advanceFromRunBody:
            let pinged = SignalEmitter()
            let app = TestApp(root: Ticking(box: AppBox()))
            app.run {
                pinged += { app.advance(by: .seconds(1)) }
                pinged.send()
            }
        case .runFromConnection:
            let box = AppBox()
            let app = TestApp(root: Echoing(box: box))
            box.app = app
            box.onLine = { app in app.run {} }
            guard let peer = try? app.connect(port: 7070) else { return }
            peer.write("hello\n")
        case .schedulerFromItsAction:
            let scheduler = VirtualScheduler()
            _ = scheduler.schedule(after: .seconds(1)) { scheduler.runDue() }
            scheduler.advance(by: .seconds(1))
        case .testHostFromTimer:
            let box = HostBox()
            let host = TestHost(Ticking(box: AppBox { box.host?.advance(by: .seconds(1)) }))
            box.host = host
            host.advance(by: .seconds(1))
        }
        // Reached only when the driver did not stop the process: the exit
        // test then fails, as it expects a failure.
    }
}

/// Lets a component's observers reach the test app that runs it.
@MainActor
final class AppBox {
    weak var app: TestApp?
    var onTick: (TestApp) -> Void = { _ in }
    var onLine: (TestApp) -> Void = { _ in }
    let tick: () -> Void

    init(tick: @escaping () -> Void = {}) {
        self.tick = tick
    }
}

@MainActor
final class HostBox {
    weak var host: TestHost<Ticking>?
}

/// Ticks every second and tells its box.
struct Ticking: Component {
    let box: AppBox
    let timer = LoopTimer(every: .seconds(1))
    var observers: Void {
        timer += {
            box.tick()
            if let app = box.app { box.onTick(app) }
        }
    }
}

/// A TCP server on port 7070 that tells its box of each line a client
/// sends.
struct Echoing: Component {
    let box: AppBox
    let server = TCPServer(port: 7070)
    let clients = InstanceComponent<LineClient>()
    var observers: Void {
        server += { connection in
            clients.add { LineClient(connection: connection, box: box) }
        }
    }
}

struct LineClient: Component {
    let connection: TCPConnection
    let box: AppBox
    var observers: Void {
        connection.lines += { _ in
            if let app = box.app { box.onLine(app) }
        }
    }
}
