import ComposeApp
import ComposeTesting
import Testing

/// LoopTimer and time-based combinators in an app on virtual time: each
/// fires at its exact instant. (On the real clock: TimerTests.)
@MainActor
@Suite struct VirtualTimerTests {
    @Test func repeatingAndOneShotTimersFireAtTheirInstantsInOrder() throws {
        let app = TestApp(root: ScenarioApp { Timers(journal: $0) })
        let journal = try #require(app.root(as: ScenarioApp<Timers>.self)).journal
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.now == .milliseconds(100))
        #expect(journal.entries == [
            "appear app", "tick 1", "tick 2", "oneshot", "tick 3", "tick 4", "tick 5",
            "shutting down", "disappear app",
        ])
    }

    @Test func eachTickComesAtItsInstantNeverBefore() throws {
        let app = TestApp(root: ScenarioApp { Timers(journal: $0) })
        let journal = try #require(app.root(as: ScenarioApp<Timers>.self)).journal
        for tick in 1...4 {
            app.advance(by: .milliseconds(19))
            #expect(journal.entries.last != "tick \(tick)")
            app.advance(by: .milliseconds(1))
            #expect(journal.entries.last == "tick \(tick)", "at \(app.now)")
        }
        #expect(journal.entries.filter { $0 == "oneshot" }.count == 1)
    }

    @Test func debounceDeliversOnlyTheLastOfABurstAfterTheQuietPeriod() throws {
        let app = TestApp(root: ScenarioApp { Debounce(journal: $0) })
        let journal = try #require(app.root(as: ScenarioApp<Debounce>.self)).journal
        app.advance(by: .milliseconds(49))
        #expect(journal.entries == ["appear app"])
        app.advance(by: .milliseconds(1))
        #expect(journal.entries == ["appear app", "debounced 3"])
        app.advance(by: .seconds(10))
        #expect(journal.entries == ["appear app", "debounced 3"])
    }
}
