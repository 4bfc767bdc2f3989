import Foundation
import Testing

/// Startup order and graceful shutdown of a real app process.
@Suite struct LifecycleTests {
    static let startup = ["willBind", "didBind", "appear app", "appear lifecycle", "appear inner", "ready"]
    static let shutdown = ["shutting down", "disappear inner", "disappear lifecycle", "disappear app"]

    @Test(arguments: [SIGTERM, SIGINT])
    func startsParentsFirstAndShutsDownChildrenFirstOnSignal(signal: Int32) async throws {
        let app = try FixtureProcess("lifecycle")
        try await app.waitFor("ready")
        #expect(app.output.lines == Self.startup, "\(app.transcript)")

        app.signal(signal)
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines == Self.startup + Self.shutdown, "\(app.transcript)")
    }

    @Test func anAppThatShutsItselfDownExitsWithItsStatusAfterDisappearing() async throws {
        let app = try FixtureProcess("selfShutdown")
        let status = await app.waitForExit()
        #expect(status == 7, "\(app.transcript)")
        #expect(app.output.lines == [
            "willBind", "didBind", "appear app", "appear selfShutdown",
            "shutting down", "disappear selfShutdown", "disappear app",
        ], "\(app.transcript)")
    }

    @Test func aShutdownRequestedBeforeTheLoopRunsIsHonoured() async throws {
        let app = try FixtureProcess("earlyShutdown")
        let status = await app.waitForExit()
        #expect(status == 5, "\(app.transcript)")
        #expect(app.output.lines == [
            "willBind", "didBind", "appear app", "appear earlyShutdown",
            "shutting down", "disappear earlyShutdown", "disappear app",
        ], "\(app.transcript)")
    }

    @Test func anAppWithNothingKeepingTheLoopAliveExitsByItself() async throws {
        let started = ContinuousClock.now
        let app = try FixtureProcess("unref")
        let status = await app.waitForExit()
        let took = ContinuousClock.now - started
        #expect(status == 0, "\(app.transcript)")
        #expect(took < .seconds(5), "took \(took)")
        // The unref'd 5 ms timer may tick a few times while the tree winds
        // down, never for long.
        let ticks = app.output.lines.filter { $0 == "tick" }.count
        #expect(ticks <= 3, "\(app.transcript)")
        #expect(app.output.lines.contains("disappear app"), "\(app.transcript)")
    }
}
