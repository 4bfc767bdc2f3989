import Foundation
import Testing

/// A child told to die with the app (`parentDeathSignal`) dies when the app
/// is killed by `SIGKILL`, which runs none of the app's own shutdown: the
/// kernel's `PR_SET_PDEATHSIG`, so the fixture app as a real process (the
/// `processGroup` scenario) and a real `SIGKILL`.
@Suite(.serialized) struct ParentDeathTests {
    /// Starts the scenario with a shell that says "ready" and becomes a
    /// marked `sleep` (`exec`: the same process, so the setting holds);
    /// returns the app once the sleep runs.
    private func start(_ marked: MarkedProcesses, diesWithApp: Bool) async throws -> FixtureProcess {
        let app = try FixtureProcess("processGroup", environment: [
            "COMPOSE_GROUP_SCRIPT": "echo ready; exec sleep \(marked.markers[0])",
            "COMPOSE_GROUP_DIES_WITH_APP": diesWithApp ? "1" : "0",
        ])
        try await app.waitFor("group ready")
        #expect(await marked.wait(until: { marked.pids.count == 1 }), "\(app.transcript)")
        return app
    }

    /// Whether process `pid` is dead: gone, or a zombie its parent has not
    /// reaped yet.
    private func isDead(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // The state follows the command name, which is in parentheses.
        return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).first == "Z"
    }

    @Test func aChildToldToDieWithTheAppIsGoneSoonAfterTheAppIsKilled() async throws {
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let app = try await start(marked, diesWithApp: true)
        app.signal(SIGKILL)
        // Real time: neither the app's death nor the sleep's sends this
        // test an event it could await (the sleep is no child of the test);
        // bounded polls of /proc (MarkedProcesses.wait).
        #expect(await marked.wait(until: { isDead(app.pid) }))
        #expect(await marked.wait(until: { marked.pids.isEmpty }, timeout: .seconds(3)), "left behind: \(marked.pids)")
        #expect(await app.waitForExit(killedOnPurpose: true) == -SIGKILL)
    }

    @Test func withoutItTheChildOutlivesAKilledApp() async throws {
        // The control: what the option changes.
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let app = try await start(marked, diesWithApp: false)
        app.signal(SIGKILL)
        // Real time, as above; the sleep gets the same 300 ms to vanish.
        #expect(await marked.wait(until: { isDead(app.pid) }))
        #expect(await !marked.wait(until: { marked.pids.isEmpty }, timeout: .milliseconds(300)))
        #expect(marked.pids.count == 1)
        // The orphan inherited, through the app, the socket Foundation
        // watches the app's exit through: the exit is reported once it ends.
        marked.killLeftovers()
        #expect(await app.waitForExit(killedOnPurpose: true) == -SIGKILL)
    }
}
