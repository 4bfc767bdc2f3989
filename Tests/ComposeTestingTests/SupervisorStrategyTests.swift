import ComposeApp
import ComposeTesting
import Testing

/// Which siblings restart when one fails, and that a restart leaves
/// nothing of the old subtree behind.
@MainActor
@Suite struct SupervisorStrategyTests {
    @Test func oneForOneRestartsOnlyTheChildThatFailed() throws {
        let log = SupervisionLog()
        let app = TestApp(root: Trio(.oneForOne, log: log))
        let trio = try #require(app.root(as: Trio.self))
        #expect(log.take() == ["a up at 0s", "b up at 0s", "c up at 0s"])
        let a = try #require(app.tree.node(at: "trio.a.component"))
        let b = try #require(app.tree.node(at: "trio.b.component"))
        let c = try #require(app.tree.node(at: "trio.c.component"))

        app.run { trio.b.crash.send() }

        #expect(log.take() == ["b down at 0s", "b up at 0s", "restarted b (1) for boom in b at 0s"])
        #expect(b.isDestroyed)
        #expect(app.tree.node(at: "trio.a.component") === a)
        #expect(app.tree.node(at: "trio.c.component") === c)
        #expect(app.tree.node(at: "trio.b.component")?.isActive == true)
        #expect(trio.supervisor.restartCounts == ["a": 0, "b": 1, "c": 0])
    }

    @Test func oneForAllRestartsEverySiblingInReverseThenInDeclarationOrder() throws {
        let log = SupervisionLog()
        let app = TestApp(root: Trio(.oneForAll, log: log))
        let trio = try #require(app.root(as: Trio.self))
        _ = log.take()

        app.run { trio.b.crash.send() }

        #expect(log.take() == [
            "c down at 0s", "b down at 0s", "a down at 0s",
            "a up at 0s", "restarted a (1) for boom in b at 0s",
            "b up at 0s", "restarted b (1) for boom in b at 0s",
            "c up at 0s", "restarted c (1) for boom in b at 0s",
        ])
        #expect(trio.supervisor.restartCounts == ["a": 1, "b": 1, "c": 1])
    }

    @Test func restForOneRestartsTheChildAndThoseDeclaredAfterIt() throws {
        let log = SupervisionLog()
        let app = TestApp(root: Trio(.restForOne, log: log))
        let trio = try #require(app.root(as: Trio.self))
        _ = log.take()
        let a = try #require(app.tree.node(at: "trio.a.component"))

        app.run { trio.b.crash.send() }

        #expect(log.take() == [
            "c down at 0s", "b down at 0s",
            "b up at 0s", "restarted b (1) for boom in b at 0s",
            "c up at 0s", "restarted c (1) for boom in b at 0s",
        ])
        #expect(app.tree.node(at: "trio.a.component") === a)

        app.run { trio.c.crash.send() }
        #expect(log.take() == ["c down at 0s", "c up at 0s", "restarted c (2) for boom in c at 0s"])
        #expect(trio.supervisor.restartCounts == ["a": 0, "b": 1, "c": 2])
    }

    @Test func aRestartedSubtreeLeavesNoObserverBehindAndForwardingSurvivesIt() throws {
        let app = TestApp(root: Trio(.oneForOne))
        let trio = try #require(app.root(as: Trio.self))
        let pongs = Recorded<Int>()
        let oldPong = try #require(trio.b.component?.pong)
        app.run {
            trio.b.forward(\.pong) += { pongs.values.append($0) }
            trio.b.pong += { _ in pongs.values.append(-1) }   // on this component only
        }
        let old = try #require(app.tree.node(at: "trio.b.component"))
        let nodes = app.tree.liveNodeCount
        let before = app.tree.statistics

        app.run { trio.b.crash.send() }

        #expect(old.isDestroyed)
        #expect(old.scopeObserverCount == 0)
        #expect(oldPong.observerCount == 0)
        #expect(app.tree.liveNodeCount == nodes)
        // The direct observer went with the old component: one fewer.
        #expect(app.tree.statistics.emitterObservers == before.emitterObservers - 1)
        #expect(app.tree.statistics.scopeObservers == before.scopeObservers)
        app.run { trio.b.ping.send(4) }
        #expect(pongs.values == [40])
    }

    @Test func theChildrenStopWithTheirSupervisorAndAPendingRestartIsCancelled() throws {
        let log = SupervisionLog()
        let app = TestApp(root: Single(intensity: .default, backoff: Backoff(initial: .seconds(5), jitter: 0), log: log))
        let single = try #require(app.root(as: Single.self))
        app.run { single.worker.crash.send() }
        #expect(!single.worker.isRunning)
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.now == .zero)   // the pending restart did not hold the app
        #expect(log.take() == ["w up at 0s", "w down at 0s"])
    }

    @Test func aComponentWithSupervisedChildrenAndNoSupervisorGetsTheDefaultOne() throws {
        let log = SupervisionLog()
        let app = TestApp(root: Unsupervising(log: log))
        let root = try #require(app.root(as: Unsupervising.self))
        _ = log.take()
        app.run { root.worker.crash.send() }
        // The default backoff waits 100 ms ±20 % first.
        #expect(log.take() == ["w down at 0s"])
        app.advance(by: .milliseconds(120))
        #expect(log.take().count == 1)
        #expect(root.worker.restartCount == 1)
    }

    @Test func aSecondSupervisorInOneComponentIsReported() throws {
        let app = TestApp(root: TwoSupervisors())
        #expect(app.diagnostics.map(\.code) == [.duplicateSupervisor])
    }
}

/// Supervised children, and no supervisor declared.
struct Unsupervising: Component {
    let worker: Supervised<Crasher>
    init(log: SupervisionLog) {
        worker = Supervised(Crasher(name: "w", log: log))
    }
    var observers: Void { None }
}

struct TwoSupervisors: Component {
    let first = Supervisor()
    let second = Supervisor()
    let worker = Supervised(Crasher(name: "w", log: SupervisionLog()))
    var observers: Void { None }
}
