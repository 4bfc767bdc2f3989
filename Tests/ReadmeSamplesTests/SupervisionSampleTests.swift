import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "Running in production", "Supervision".

struct Indexer: Component {
    let tick = LoopTimer(every: .seconds(10))
    var observers: Void {
        tick += { task { try await reindex() } }   // a thrown error restarts the indexer
    }
}

struct Backend: Component {
    let worker = ChildProcess("/usr/local/bin/worker", startsWithComponent: true, fatal: true)
    var observers: Void { None }
}

struct Services: Component {
    let supervisor = Supervisor(
        strategy: .oneForOne,                                  // or .oneForAll, .restForOne
        intensity: .init(restarts: 5, within: .seconds(60)),   // more: escalate (the app exits 70)
        backoff: Backoff(initial: .milliseconds(100), maximum: .seconds(30))
    )
    let indexer = Supervised(Indexer())
    let backend = Supervised(Backend())
    var observers: Void {
        supervisor.didRestart += { print("restarted \($0.child) (\($0.count)): \($0.failure)") }
    }
}

// What the sample's indexer runs: it fails as often as the test says.

@MainActor
enum Reindexing {
    static var failuresLeft = 0
}

struct IndexUnavailable: Error, CustomStringConvertible {
    var description: String { "index unavailable" }
}

@MainActor
func reindex() async throws {
    guard Reindexing.failuresLeft > 0 else { return }
    Reindexing.failuresLeft -= 1
    throw IndexUnavailable()
}

@MainActor
@Suite(.serialized) struct SupervisionSampleTests {
    @Test func theSupervisorRestartsAFailingIndexerAndAWorkerThatExits() async throws {
        Reindexing.failuresLeft = 1
        let worker = SampleBox<ScriptedProcess>()
        let app = TestApp(root: Services()) { app in
            worker.value = app.scriptProcess("/usr/local/bin/worker")
        }
        let services = try #require(app.root(as: Services.self))
        _ = Printed.take()

        await app.advance(by: .seconds(10))    // the tick: reindex() throws
        #expect(services.indexer.isRunning == false)
        await app.advance(by: .milliseconds(120))   // 100 ms ±20 %
        #expect(services.indexer.isRunning)

        let run = try #require(worker.value?.runs.first)
        run.exit(status: 1)                    // the worker program crashed
        await app.advance(by: .milliseconds(120))
        #expect(worker.value?.runs.count == 2)

        #expect(Printed.take().filter { $0.hasPrefix("restarted") } == [
            "restarted indexer (1): services.indexer.component failed: index unavailable",
            "restarted backend (1): services.backend.component failed: /usr/local/bin/worker exited with status 1",
        ])
        #expect(services.supervisor.restartCounts == ["indexer": 1, "backend": 1])
    }
}

/// Carries a value out of a `setUp` closure.
@MainActor
final class SampleBox<Value> {
    var value: Value?
}
