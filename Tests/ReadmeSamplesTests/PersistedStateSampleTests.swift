// README.md, "Persisted state": a counter daemon whose count survives
// restarts, and the test of a restart (issue #33: written from the
// documentation, it compiled, ran and persisted nothing).

import ComposeApp
import ComposeTesting
import Testing
import ComposePersistence   // all a persisted store needs: without it, persistedAs: does not compile

struct Uptime: Equatable, Codable { var seconds = 0 }

struct UptimeCounter: Component {
    @Store(persistedAs: "uptime") var uptime = Uptime()   // restored before the observers run
    let tick = LoopTimer(every: .seconds(1))

    var observers: Void {
        tick += { uptime.seconds += 1 }   // saved 0.5 s after a change, within 1 s while it keeps changing, and at shutdown
    }
}

extension UptimeCounter: StartupComponent {}

@MainActor
@Test func theUptimeSurvivesARestart() {
    let first = TestApp(UptimeCounter.self)
    first.advance(by: .seconds(3))
    first.send(.terminate)
    first.runUntilExit()

    let second = TestApp(UptimeCounter.self) { $0.stateStorage = first.stateStorage }
    #expect(second.root(as: UptimeCounter.self)?.uptime.seconds == 3)
}

/// The first tick (at 1 s) is saved once the state stayed unchanged for
/// the half-second debounce.
@MainActor
@Test func aChangeIsSavedHalfASecondLater() {
    let app = TestApp(UptimeCounter.self)
    app.advance(by: .milliseconds(1_400))
    #expect(app.stateStorage.state(Uptime.self, key: "uptime") == nil)
    app.advance(by: .milliseconds(100))
    #expect(app.stateStorage.state(Uptime.self, key: "uptime")?.seconds == 1)
}
