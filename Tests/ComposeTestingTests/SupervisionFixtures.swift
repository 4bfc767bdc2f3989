import ComposeApp
import ComposeTesting

/// The error fixtures fail with.
struct Boom: Error, Equatable, CustomStringConvertible {
    let name: String
    var description: String { "boom in \(name)" }
}

/// What supervised fixtures did, with the virtual time: "b up at 1s".
@MainActor
final class SupervisionLog {
    var entries: [String] = []

    func write(_ entry: String) {
        entries.append("\(entry) at \(AppEvent.format(Application.clock.now.offset))")
    }

    /// The entries since the last call.
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }
}

/// A child that says when it appears and disappears, fails on `crash`,
/// and counts what it received on `ping`.
struct Crasher: Component {
    let name: String
    let log: SupervisionLog
    let crash = SignalEmitter()
    let ping = Emitter<Int>()
    let pong = Emitter<Int>()

    var observers: Void {
        didAppear += { log.write("\(name) up") }
        didDisappear += { log.write("\(name) down") }
        crash += { fail(Boom(name: name)) }
        ping += { pong.send($0 * 10) }
    }
}

/// Three crashers under one supervisor.
struct Trio: Component {
    let supervisor: Supervisor
    let a: Supervised<Crasher>
    let b: Supervised<Crasher>
    let c: Supervised<Crasher>
    let log: SupervisionLog

    init(_ strategy: Supervisor.Strategy, log: SupervisionLog = SupervisionLog()) {
        supervisor = Supervisor(strategy: strategy, intensity: .init(restarts: 10, within: .seconds(60)), backoff: .immediate)
        a = Supervised(Crasher(name: "a", log: log))
        b = Supervised(Crasher(name: "b", log: log))
        c = Supervised(Crasher(name: "c", log: log))
        self.log = log
    }

    var observers: Void {
        supervisor.didRestart += { log.write("restarted \($0.child) (\($0.count)) for \($0.failure.error)") }
        supervisor.didGiveUp += { log.write("gave up: \($0.failure.error)") }
    }
}

/// A supervisor of one crasher, with the given settings.
struct Single: Component {
    let supervisor: Supervisor
    let worker: Supervised<Crasher>
    let log: SupervisionLog
    let restarts = Recorded<Supervisor.Restart>()
    let giveUps = Recorded<Supervisor.GiveUp>()

    init(intensity: Supervisor.Intensity, backoff: Backoff = .immediate, log: SupervisionLog = SupervisionLog()) {
        supervisor = Supervisor(intensity: intensity, backoff: backoff)
        worker = Supervised(Crasher(name: "w", log: log))
        self.log = log
    }

    var observers: Void {
        supervisor.didRestart += { [restarts] in restarts.values.append($0) }
        supervisor.didGiveUp += { [giveUps] in giveUps.values.append($0) }
    }
}

/// A supervisor whose child is a `Single` (a supervisor of its own).
struct Nested: Component {
    let supervisor = Supervisor(intensity: .init(restarts: 5, within: .seconds(60)), backoff: .immediate)
    let inner: Supervised<Single>
    let restarts = Recorded<Supervisor.Restart>()

    init(innerIntensity: Supervisor.Intensity, log: SupervisionLog) {
        inner = Supervised(Single(intensity: innerIntensity, log: log))
    }

    var observers: Void {
        supervisor.didRestart += { [restarts] in restarts.values.append($0) }
    }
}

/// Values an emitter sent.
@MainActor
final class Recorded<Value> {
    var values: [Value] = []
}

/// A component whose task sleeps `after` on the app's clock, then throws
/// (or, with `nil`, sleeps an hour), writing down how it ended.
struct Dozer: Component {
    let log: SupervisionLog
    let failsAfter: Duration?
    /// What the task throws when it is cancelled, instead of
    /// `CancellationError`.
    let throwsOnCancel: Bool
    let started = SignalEmitter()

    init(log: SupervisionLog, failsAfter: Duration?, throwsOnCancel: Bool = false) {
        self.log = log
        self.failsAfter = failsAfter
        self.throwsOnCancel = throwsOnCancel
    }

    var observers: Void {
        didAppear += {
            started.send()
            task {
                do {
                    try await Application.clock.sleep(for: failsAfter ?? .seconds(3600))   // virtual time: the test app's clock
                } catch {
                    log.write("task cancelled")
                    if throwsOnCancel { throw Boom(name: "cancelled task") }
                    throw error
                }
                log.write("task throws")
                throw Boom(name: "task")
            }
        }
    }
}

/// A supervisor of one `Dozer`.
struct Dozers: Component {
    let supervisor = Supervisor(intensity: .init(restarts: 10, within: .seconds(60)), backoff: .immediate)
    let dozer: Supervised<Dozer>

    init(log: SupervisionLog, failsAfter: Duration?, throwsOnCancel: Bool = false) {
        dozer = Supervised(Dozer(log: log, failsAfter: failsAfter, throwsOnCancel: throwsOnCancel))
    }

    var observers: Void { None }
}

/// A listener on port 7070 that fails its component when it cannot listen.
struct PortListener: Component {
    let server: TCPServer
    let log: SupervisionLog

    init(log: SupervisionLog, fatal: Bool) {
        server = TCPServer(port: 7070, fatal: fatal)
        self.log = log
    }

    var observers: Void {
        server.errors += { log.write("listen failed: \($0.kind)") }
    }
}

/// A supervised `PortListener` whose restarts wait 1 s, 2 s, 4 s, ...
struct PortListeners: Component {
    let supervisor = Supervisor(
        intensity: .init(restarts: 10, within: .seconds(60)),
        backoff: Backoff(initial: .seconds(1), maximum: .seconds(30), multiplier: 2, jitter: 0)
    )
    let listener: Supervised<PortListener>
    let log: SupervisionLog

    init(log: SupervisionLog, fatal: Bool = true) {
        listener = Supervised(PortListener(log: log, fatal: fatal))
        self.log = log
    }

    var observers: Void {
        supervisor.didRestart += { log.write("restarted \($0.child) (\($0.count)) after \(AppEvent.format($0.delay))") }
    }
}

/// A worker program started with its component; its failure fails it.
struct WorkerProgram: Component {
    let process = ChildProcess("worker", startsWithComponent: true, fatal: true)
    var observers: Void { None }
}

/// A supervised `WorkerProgram`.
struct WorkerPool: Component {
    let supervisor = Supervisor(intensity: .init(restarts: 3, within: .seconds(60)), backoff: .immediate)
    let worker = Supervised(WorkerProgram())
    let restarts = Recorded<Supervisor.Restart>()

    var observers: Void {
        supervisor.didRestart += { [restarts] in restarts.values.append($0) }
    }
}

/// A worker program and a crasher that depend on each other.
struct Pair: Component {
    let supervisor = Supervisor(strategy: .oneForAll, intensity: .init(restarts: 5, within: .seconds(60)), backoff: .immediate)
    let worker = Supervised(WorkerProgram())
    let crasher = Supervised(Crasher(name: "c", log: SupervisionLog()))
    let restarts = Recorded<Supervisor.Restart>()

    var observers: Void {
        supervisor.didRestart += { [restarts] in restarts.values.append($0) }
    }
}
