import Foundation
import Testing

/// A daemon's children and everything in their process groups end with the
/// daemon however it stops: graceful shutdown, the forced deadline, a
/// second signal. The fixture app as a real process (the `processGroup`
/// scenario): the signals and the groups are the kernel's.
@Suite struct ProcessGroupShutdownTests {
    /// Starts the scenario on `marked`'s script and waits until both sleeps run.
    private func start(
        _ marked: MarkedProcesses, ignoringTerm: Bool, environment: [String: String] = [:]
    ) async throws -> FixtureProcess {
        let app = try FixtureProcess("processGroup", environment: environment.merging([
            "COMPOSE_GROUP_SCRIPT": marked.script(ignoringTerm: ignoringTerm),
        ]) { _, new in new })
        try await app.waitFor("group ready")
        #expect(await marked.wait(until: { marked.bothRun }), "\(marked.pids) \(app.transcript)")
        return app
    }

    @Test func aGracefulShutdownStopsTheChildsWholeGroup() async throws {
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let app = try await start(marked, ignoringTerm: false)
        app.signal(SIGTERM)
        #expect(await app.waitForExit() == 0, "\(app.transcript)")
        #expect(await marked.wait(until: { marked.pids.isEmpty }, timeout: .seconds(3)), "left behind: \(marked.pids)")
    }

    @Test func theForcedDeadlineKillsAGroupThatIgnoresSIGTERM() async throws {
        // Real time: the deadline is a libuv timer of the real process;
        // 300 ms keeps the test short, and the grace period is longer.
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let app = try await start(marked, ignoringTerm: true, environment: [
            "COMPOSE_DEADLINE_MS": "300", "COMPOSE_GROUP_GRACE_MS": "60000",
        ])
        app.signal(SIGTERM)
        #expect(await app.waitForExit() == 3, "\(app.transcript)")
        #expect(await marked.wait(until: { marked.pids.isEmpty }, timeout: .seconds(3)), "left behind: \(marked.pids)")
    }

    @Test func aSecondSignalKillsTheGroupsBeforeTheAppExits() async throws {
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let app = try await start(marked, ignoringTerm: true, environment: ["COMPOSE_GROUP_GRACE_MS": "60000"])
        app.signal(SIGTERM)
        try await app.waitFor("shutting down")
        app.signal(SIGTERM)
        let status = await app.waitForExit()
        #expect(status != 0, "\(app.transcript)")
        #expect(await marked.wait(until: { marked.pids.isEmpty }, timeout: .seconds(3)), "left behind: \(marked.pids)")
    }
}
