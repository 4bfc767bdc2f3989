import ComposeApp
import ComposeTesting
import Testing

/// Backoff between restarts on the virtual clock, restart intensity, and
/// escalation: to the supervisor above, and past the root to the app's
/// exit status.
@MainActor
@Suite struct SupervisorIntensityTests {
    @Test func aChildFailingThreeTimesIsRestartedAfterGrowingJitteredDelaysWithinTheBounds() throws {
        let backoff = Backoff(initial: .seconds(1), maximum: .seconds(10), multiplier: 2, jitter: 0.2)
        let app = TestApp(root: Single(intensity: .init(restarts: 10, within: .seconds(60)), backoff: backoff))
        let single = try #require(app.root(as: Single.self))
        // The test context draws from a generator seeded with 0: the same
        // draws here give the delays to expect.
        var random = SeededRandomNumberGenerator(seed: 0)
        var delays: [Duration] = []
        for failures in 1...3 {
            app.advance(by: .seconds(7))   // run a while, then fail
            let failedAt = app.now
            app.run { single.worker.crash.send() }
            #expect(!single.worker.isRunning)
            let unit = Double(random.next() >> 11) * 0x1p-53
            let expected = backoff.delay(afterFailures: failures, jitterUnit: unit)
            let exponential = Duration.seconds(1 << (failures - 1))
            #expect(expected >= exponential * 0.8 && expected <= exponential * 1.2)

            app.advance(by: expected - .milliseconds(1))
            #expect(!single.worker.isRunning)
            app.advance(by: .milliseconds(1))
            #expect(single.worker.isRunning)
            let restart = try #require(single.restarts.values.last)
            #expect(restart.delay == expected)
            #expect(restart.count == failures)
            #expect(app.now - failedAt == expected)
            delays.append(expected)
        }
        #expect(delays[0] < delays[1] && delays[1] < delays[2])
        // Jittered: not the plain doubling.
        #expect(delays != [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test func theJitterComesFromTheContextsRandomSource() throws {
        let backoff = Backoff(initial: .seconds(1), maximum: .seconds(10), multiplier: 2, jitter: 0.5)
        let app = TestApp(root: Single(intensity: .default, backoff: backoff)) { app in
            app.context.random = SeededRandomNumberGenerator(seed: 7)
        }
        let single = try #require(app.root(as: Single.self))
        var random = SeededRandomNumberGenerator(seed: 7)
        app.run { single.worker.crash.send() }
        app.advance(by: .seconds(2))
        let unit = Double(random.next() >> 11) * 0x1p-53
        #expect(single.restarts.values.map(\.delay) == [backoff.delay(afterFailures: 1, jitterUnit: unit)])
    }

    @Test func theRestartEmitterSaysWhichChildHowManyTimesAndWhy() throws {
        let app = TestApp(root: Single(intensity: .init(restarts: 5, within: .seconds(60))))
        let single = try #require(app.root(as: Single.self))
        app.run { single.worker.crash.send() }
        app.run { single.worker.crash.send() }
        let restarts = single.restarts.values
        #expect(restarts.map(\.child) == ["worker", "worker"])
        #expect(restarts.map(\.count) == [1, 2])
        #expect(restarts.map(\.failure.path) == ["single.worker.component", "single.worker.component"])
        #expect(restarts.map { $0.failure.error as? Boom } == [Boom(name: "w"), Boom(name: "w")])
        #expect(restarts.map(\.delay) == [.zero, .zero])
        #expect(single.giveUps.values.isEmpty)
    }

    @Test func restartsOlderThanTheWindowNoLongerCount() throws {
        let app = TestApp(root: Single(intensity: .init(restarts: 2, within: .seconds(10))))
        let single = try #require(app.root(as: Single.self))
        app.run { single.worker.crash.send() }                 // 0 s
        app.advance(by: .seconds(5))
        app.run { single.worker.crash.send() }                 // 5 s: 2 in the window
        app.advance(by: .seconds(5))
        app.run { single.worker.crash.send() }                 // 10 s: the one at 0 s left it
        #expect(single.restarts.values.count == 3)
        #expect(single.giveUps.values.isEmpty)
        app.run { single.worker.crash.send() }                 // 10 s: 5 s and 10 s in it
        #expect(single.restarts.values.count == 3)
        #expect(single.giveUps.values.count == 1)
    }

    @Test func exceedingTheIntensityEscalatesToTheParentSupervisorWhichRestartsTheWholeSubtree() throws {
        let log = SupervisionLog()
        let app = TestApp(root: Nested(innerIntensity: .init(restarts: 2, within: .seconds(10)), log: log))
        let nested = try #require(app.root(as: Nested.self))
        let firstInner = try #require(nested.inner.component)
        _ = log.take()

        app.run { nested.inner.component?.worker.crash.send() }
        app.run { nested.inner.component?.worker.crash.send() }
        #expect(firstInner.restarts.values.count == 2)
        #expect(nested.restarts.values.isEmpty)
        _ = log.take()

        app.run { nested.inner.component?.worker.crash.send() }

        let giveUp = try #require(firstInner.giveUps.values.first)
        #expect(giveUp.supervisor == "nested.inner.component")
        #expect(giveUp.intensity == .init(restarts: 2, within: .seconds(10)))
        #expect(giveUp.failure.error as? Boom == Boom(name: "w"))
        let restart = try #require(nested.restarts.values.first)
        #expect(restart.child == "inner")
        #expect(restart.failure.path == "nested.inner.component")
        #expect((restart.failure.error as? Supervisor.GiveUp)?.supervisor == "nested.inner.component")
        // The inner supervisor stopped its child, then the outer one made a
        // fresh inner subtree, with a fresh supervisor.
        #expect(log.take() == ["w down at 0s", "w up at 0s"])
        let secondInner = try #require(nested.inner.component)
        #expect(secondInner.supervisor !== firstInner.supervisor)
        #expect(secondInner.supervisor.restartCounts == ["worker": 0])
        #expect(secondInner.worker.isRunning)
        #expect(app.exitStatus == nil)
    }

    @Test func aSupervisorGivingUpAtTheRootEndsTheAppWithTheDocumentedStatus() throws {
        let app = TestApp(root: Single(intensity: .init(restarts: 1, within: .seconds(10))))
        let single = try #require(app.root(as: Single.self))
        app.run { single.worker.crash.send() }
        #expect(app.exitStatus == nil)
        app.run { single.worker.crash.send() }
        app.runUntilExit()
        #expect(Supervisor.failureExitStatus == 70)
        #expect(app.exitStatus == 70)
        #expect(single.giveUps.values.count == 1)
        let diagnostic = try #require(app.diagnostics.last)
        #expect(diagnostic.code == .unsupervisedFailure)
        #expect(diagnostic.path == "single")
        #expect(app.context.shutdown.reason?.hasPrefix("single failed: single gave up") == true)
    }

    @Test func anIntensityOfZeroGivesUpAtTheFirstFailure() throws {
        let app = TestApp(root: Single(intensity: .init(restarts: 0, within: .seconds(10))))
        let single = try #require(app.root(as: Single.self))
        app.run { single.worker.crash.send() }
        app.runUntilExit()
        #expect(app.exitStatus == 70)
        #expect(single.restarts.values.isEmpty)
    }

    @Test func aFailureWithNoSupervisorAboveItEndsTheApp() throws {
        let log = SupervisionLog()
        let app = TestApp(root: Crasher(name: "alone", log: log))
        let crasher = try #require(app.root(as: Crasher.self))
        app.run { crasher.crash.send() }
        app.runUntilExit()
        #expect(app.exitStatus == 70)
        #expect(app.diagnostics.map(\.code) == [.unsupervisedFailure])
        #expect(app.context.shutdown.reason == "crasher failed: boom in alone")
    }

    @Test func aChildThatFailsAsItStartsIsRestartedUntilTheSupervisorGivesUp() throws {
        let app = TestApp(root: FailingAtStart())
        app.runUntilExit()
        let root = try #require(app.root(as: FailingAtStart.self))
        #expect(root.restarts.values.map(\.count) == [1, 2])
        #expect(app.exitStatus == 70)
    }

    @Test func failuresDuringTheShutdownAreNotRestarted() throws {
        let app = TestApp(root: FailsOnShutdown())
        let root = try #require(app.root(as: FailsOnShutdown.self))
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(root.restarts.values.isEmpty)
    }
}

/// A component that fails in its `observers`.
struct FailsInObservers: Component {
    let marker = SignalEmitter()
    var observers: Void {
        fail(Boom(name: "start"))
    }
}

struct FailingAtStart: Component {
    let supervisor = Supervisor(intensity: .init(restarts: 2, within: .seconds(60)), backoff: .immediate)
    let child = Supervised(FailsInObservers())
    let restarts = Recorded<Supervisor.Restart>()
    var observers: Void {
        supervisor.didRestart += { [restarts] in restarts.values.append($0) }
    }
}

/// A component that fails when it disappears.
struct FailsOnDisappear: Component {
    let marker = SignalEmitter()
    var observers: Void {
        didDisappear += { fail(Boom(name: "disappearing")) }
    }
}

struct FailsOnShutdown: Component {
    let supervisor = Supervisor(backoff: .immediate)
    let child = Supervised(FailsOnDisappear())
    let restarts = Recorded<Supervisor.Restart>()
    var observers: Void {
        supervisor.didRestart += { [restarts] in restarts.values.append($0) }
    }
}
