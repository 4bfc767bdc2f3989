import ComposeApp
import ComposeTesting
import Testing

/// The limits of a graceful shutdown, on a TestApp: a second signal, and
/// the deadline on virtual time. (The deadline closing real handles:
/// ProcessLifecycleTests.)
@MainActor
@Suite struct ShutdownTests {
    @Test(arguments: [
        (ProcessSignal.Name.terminate, ProcessSignal.Name.interrupt),
        (.interrupt, .terminate),
        (.terminate, .terminate),
    ])
    func aSecondSignalDuringShutdownEndsTheAppAtOnceWith128PlusItsNumber(first: ProcessSignal.Name, second: ProcessSignal.Name) throws {
        // The stray timer keeps the shutdown from finishing; the deadline is long.
        let app = TestApp(
            root: ScenarioApp { Deadline(journal: $0) },
            configuration: StartupConfiguration(shutdownDeadline: .seconds(20))
        )
        let journal = try #require(app.root(as: ScenarioApp<Deadline>.self)).journal
        app.send(first)
        app.advance(by: .seconds(10))
        #expect(!app.hasExited)
        #expect(journal.entries.contains("shutting down"))

        app.send(second)
        #expect(app.exitStatus == 128 + second.rawValue)
        #expect(app.now == .seconds(10))
    }

    @Test func aShutdownPastItsDeadlineEndsWithTheForcedStatusAtTheDeadline() throws {
        let app = TestApp(
            root: ScenarioApp { Deadline(journal: $0) },
            configuration: StartupConfiguration(shutdownDeadline: .milliseconds(300), forcedExitStatus: 3)
        )
        let journal = try #require(app.root(as: ScenarioApp<Deadline>.self)).journal
        app.advance(by: .seconds(1))
        app.send(.terminate)
        // The tree is gone at once; the stray timer is not.
        #expect(journal.entries == ["appear app", "appear deadline", "shutting down", "disappear deadline", "disappear app"])
        app.advance(by: .milliseconds(299))
        #expect(!app.hasExited)
        app.advance(by: .milliseconds(1))
        #expect(app.exitStatus == 3)
    }

    @Test func aShutdownThatFinishesBeforeItsDeadlineEndsWithStatus0() throws {
        let app = TestApp(
            root: ScenarioApp { SelfShutdown(journal: $0) },
            configuration: StartupConfiguration(shutdownDeadline: .milliseconds(300), forcedExitStatus: 3)
        )
        app.send(.terminate)
        #expect(app.exitStatus == 0)
        #expect(app.now == .zero)
    }
}
