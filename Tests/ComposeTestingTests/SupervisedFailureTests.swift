import ComposeApp
import ComposeTesting
import Testing

/// What fails a supervised child besides `fail(_:)`: a component task that
/// throws, a fatal listener that cannot listen, a fatal child process that
/// exits unsuccessfully; and what does not (cancellation, exits the app
/// asked for).
@MainActor
@Suite struct SupervisedFailureTests {
    // MARK: Component tasks

    @Test func anErrorThrownByAComponentTaskRestartsTheComponent() async throws {
        let log = SupervisionLog()
        let app = TestApp(root: Dozers(log: log, failsAfter: .seconds(5)))
        let root = try #require(app.root(as: Dozers.self))
        await app.advance(by: .seconds(4))
        #expect(root.dozer.restartCount == 0)
        await app.advance(by: .seconds(1))
        #expect(log.take() == ["task throws at 5s"])
        #expect(root.dozer.restartCount == 1)
        // The fresh component's task started at 5 s.
        await app.advance(by: .seconds(5))
        #expect(log.take() == ["task throws at 10s"])
        #expect(root.dozer.restartCount == 2)
    }

    @Test func destroyingTheComponentCancelsItsTasksAndTheirCancellationIsNoFailure() async throws {
        let log = SupervisionLog()
        let app = TestApp(root: Dozers(log: log, failsAfter: nil))
        let root = try #require(app.root(as: Dozers.self))
        await app.advance(by: .seconds(1))
        app.run { root.dozer.component?.fail(Boom(name: "dozer")) }
        await app.settle()
        #expect(log.take() == ["task cancelled at 1s"])
        #expect(root.dozer.restartCount == 1)
        await app.advance(by: .seconds(60))
        #expect(root.dozer.restartCount == 1)
        #expect(log.take().isEmpty)
    }

    @Test func whatACancelledTaskThrowsIsNoFailure() async throws {
        let log = SupervisionLog()
        let app = TestApp(root: Dozers(log: log, failsAfter: nil, throwsOnCancel: true))
        let root = try #require(app.root(as: Dozers.self))
        app.run { root.dozer.component?.fail(Boom(name: "dozer")) }
        await app.settle()
        #expect(log.take() == ["task cancelled at 0s"])
        #expect(root.dozer.restartCount == 1)
    }

    @Test func aTaskOfAnUnsupervisedComponentThatThrowsEndsTheApp() async throws {
        let log = SupervisionLog()
        let app = TestApp(root: Dozer(log: log, failsAfter: .seconds(3)))
        await app.runUntilExit()
        #expect(app.exitStatus == 70)
        #expect(app.now == .seconds(3))
        #expect(app.context.shutdown.reason == "dozer failed: boom in task")
    }

    @Test func theAppsShutdownCancelsComponentTasks() async throws {
        let log = SupervisionLog()
        let app = TestApp(root: Dozers(log: log, failsAfter: nil))
        await app.advance(by: .seconds(2))
        app.send(.terminate)
        await app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(log.take() == ["task cancelled at 2s"])
    }

    // MARK: Fatal resources

    @Test func aFatalListenerThatCannotListenIsRetriedWithBackoffUntilThePortIsFree() throws {
        let log = SupervisionLog()
        let app = TestApp(root: PortListeners(log: log)) { app in app.occupy(port: 7070) }
        let root = try #require(app.root(as: PortListeners.self))
        #expect(log.take() == ["listen failed: addressInUse at 0s"])
        #expect(throws: LoopError.self) { try app.connect(port: 7070) }

        app.advance(by: .seconds(1))
        #expect(log.take() == ["listen failed: addressInUse at 1s", "restarted listener (1) after 1s at 1s"])
        app.advance(by: .seconds(2))
        #expect(log.take() == ["listen failed: addressInUse at 3s", "restarted listener (2) after 2s at 3s"])

        app.release(port: 7070)
        app.advance(by: .seconds(3))
        #expect(log.take().isEmpty)
        app.advance(by: .seconds(1))
        #expect(log.take() == ["restarted listener (3) after 4s at 7s"])
        #expect(root.listener.component?.server.isListening == true)
        _ = try app.connect(port: 7070)
    }

    @Test func aListenerNotMarkedFatalOnlyReportsItsFailure() throws {
        let log = SupervisionLog()
        let app = TestApp(root: PortListeners(log: log, fatal: false)) { app in app.occupy(port: 7070) }
        let root = try #require(app.root(as: PortListeners.self))
        app.advance(by: .seconds(60))
        #expect(log.take() == ["listen failed: addressInUse at 0s"])
        #expect(root.listener.restartCount == 0)
    }

    // MARK: Supervised child processes

    @Test func aWorkerProgramThatExitsUnsuccessfullyIsStartedAgain() throws {
        let script = Box<ScriptedProcess>()
        let app = TestApp(root: WorkerPool()) { app in script.value = app.scriptProcess("worker") }
        let pool = try #require(app.root(as: WorkerPool.self))
        let worker = try #require(script.value)
        #expect(worker.runs.count == 1)

        worker.runs[0].exit(status: 3)
        #expect(worker.runs.count == 2)
        #expect(worker.runs[1].isRunning)
        let restart = try #require(pool.restarts.values.first)
        #expect(restart.failure.error as? ChildProcess.UnexpectedExit
            == ChildProcess.UnexpectedExit(executable: "worker", termination: .init(status: 3, signal: nil)))
        #expect(restart.failure.path == "workerPool.worker.component")

        worker.runs[1].exit(signal: .kill)
        #expect(worker.runs.count == 3)
        #expect(pool.restarts.values.map(\.count) == [1, 2])

        // Exiting with status 0 is no failure: the component stays.
        worker.runs[2].exit(status: 0)
        #expect(worker.runs.count == 3)
        #expect(pool.worker.isRunning)
        #expect(pool.restarts.values.count == 2)
    }

    @Test func aWorkerProgramStoppedByTheAppIsNotRestarted() throws {
        let script = Box<ScriptedProcess>()
        let app = TestApp(root: WorkerPool()) { app in script.value = app.scriptProcess("worker") }
        let pool = try #require(app.root(as: WorkerPool.self))
        let worker = try #require(script.value)
        app.run { pool.worker.component?.process.terminate() }
        #expect(worker.runs[0].termination == .init(status: 0, signal: ProcessSignal.Name.terminate.rawValue))
        #expect(worker.runs.count == 1)

        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(pool.restarts.values.isEmpty)
    }

    @Test func aRestartClosesTheOldSubtreesResourcesAndTheirEndIsNoFailure() throws {
        let script = Box<ScriptedProcess>()
        let app = TestApp(root: Pair()) { app in script.value = app.scriptProcess("worker") }
        let pair = try #require(app.root(as: Pair.self))
        let worker = try #require(script.value)

        app.run { pair.crasher.crash.send() }   // one for all: the worker restarts too

        #expect(worker.runs.count == 2)
        #expect(worker.runs[0].signalsReceived == [.terminate])
        #expect(worker.runs[0].termination?.signal == ProcessSignal.Name.terminate.rawValue)
        #expect(worker.runs[1].isRunning)
        #expect(pair.restarts.values.map(\.child) == ["worker", "crasher"])
        #expect(pair.restarts.values.allSatisfy { $0.failure.path == "pair.crasher.component" })
    }

    @Test func aWorkerProgramEndedByTheShutdownIsNotRestarted() throws {
        let script = Box<ScriptedProcess>()
        let app = TestApp(root: WorkerPool()) { app in script.value = app.scriptProcess("worker") }
        let pool = try #require(app.root(as: WorkerPool.self))
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(script.value?.runs.count == 1)
        #expect(script.value?.runs.first?.signalsReceived == [.terminate])
        #expect(pool.restarts.values.isEmpty)
    }

    @Test func aWorkerProgramThatCannotStartIsRetriedThenTheAppGivesUp() throws {
        // Nothing scripts "worker": every start fails with ENOENT.
        let app = TestApp(root: WorkerPool())
        app.runUntilExit()
        let pool = try #require(app.root(as: WorkerPool.self))
        #expect(pool.restarts.values.map(\.count) == [1, 2, 3])
        #expect(pool.restarts.values.allSatisfy { ($0.failure.error as? LoopError)?.kind == .notFound })
        #expect(app.exitStatus == 70)
    }
}
