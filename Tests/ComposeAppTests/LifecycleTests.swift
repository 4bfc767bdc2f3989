import ComposeApp
import ComposeTesting
import Testing

/// Startup order and shutdown, on a TestApp: the app's code runs as
/// `main()` runs it, signals are simulated and time is virtual. (The real
/// process: ProcessLifecycleTests.)
@MainActor
@Suite struct LifecycleTests {
    static let startup = ["willBind", "didBind", "appear app", "appear lifecycle", "appear inner"]
    static let shutdown = ["shutting down", "disappear inner", "disappear lifecycle", "disappear app"]

    @Test(arguments: [ProcessSignal.Name.terminate, .interrupt])
    func startsParentsFirstAndShutsDownChildrenFirstOnSignal(signal: ProcessSignal.Name) throws {
        let app = TestApp(LifecycleApp.self)
        let journal = try #require(app.root(as: LifecycleApp.self)).journal
        #expect(journal.entries == Self.startup)

        app.advance(by: .seconds(7200))
        #expect(app.exitStatus == nil)
        #expect(journal.entries == Self.startup)

        app.send(signal)
        #expect(app.exitStatus == 0)
        #expect(journal.entries == Self.startup + Self.shutdown)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func anAppThatShutsItselfDownExitsWithItsStatusAfterDisappearing() throws {
        let app = TestApp(root: ScenarioApp { SelfShutdown(journal: $0) })
        let journal = try #require(app.root(as: ScenarioApp<SelfShutdown>.self)).journal
        app.advance(by: .milliseconds(19))
        #expect(app.exitStatus == nil)
        app.advance(by: .milliseconds(1))
        #expect(app.exitStatus == 7)
        #expect(journal.entries == [
            "appear app", "appear selfShutdown",
            "shutting down", "disappear selfShutdown", "disappear app",
        ])
    }

    @Test func aShutdownRequestedWhileTheTreeIsActivatedIsHonoured() throws {
        let app = TestApp(root: ScenarioApp { EarlyShutdown(journal: $0) })
        let journal = try #require(app.root(as: ScenarioApp<EarlyShutdown>.self)).journal
        #expect(app.exitStatus == 5)
        #expect(app.now == .zero)
        #expect(journal.entries == [
            "appear app", "appear earlyShutdown",
            "shutting down", "disappear earlyShutdown", "disappear app",
        ])
    }

    @Test func anAppWithNothingKeepingItAliveExitsByItselfWithStatus0() throws {
        let app = TestApp(root: ScenarioApp { Unref(journal: $0) })
        let journal = try #require(app.root(as: ScenarioApp<Unref>.self)).journal
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        // Nothing kept it running: it ended before the timer's first tick.
        #expect(app.now == .zero)
        #expect(journal.entries == ["appear app", "appear unref", "shutting down", "disappear app"])
    }

    @Test func hangupAndUser1ReachTheirEmittersAndNeverShutTheAppDown() throws {
        let app = TestApp(root: ScenarioApp { Signals(journal: $0) })
        let journal = try #require(app.root(as: ScenarioApp<Signals>.self)).journal
        app.send(.hangup)
        app.send(.user1)
        app.send(.hangup)
        #expect(journal.entries == ["appear app", "hup", "usr1", "hup"])
        #expect(!app.hasExited)

        app.send(.terminate)
        #expect(app.exitStatus == 0)
        #expect(journal.entries.suffix(2) == ["shutting down", "disappear app"])
    }
}
