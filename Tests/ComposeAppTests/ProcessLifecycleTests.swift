import Foundation
import Testing

/// The real runtime as a process (the fixture app, Tests/Fixtures/AppFixture):
/// what a TestApp does not run. Signals delivered by the kernel, the exit
/// status the process ends with, libuv's own idea of a loop with nothing
/// left to do, and handles closed by force at the deadline. The ordering
/// logic itself is tested on a TestApp (LifecycleTests, ShutdownTests).
@Suite struct ProcessLifecycleTests {
    static let startup = ["willBind", "didBind", "appear app", "appear lifecycle", "appear inner", "ready"]
    static let shutdown = ["shutting down", "disappear inner", "disappear lifecycle", "disappear app"]

    @Test(arguments: [SIGTERM, SIGINT])
    func aKernelSignalShutsTheProcessDownInOrderWithStatus0(signal: Int32) async throws {
        let app = try FixtureProcess("lifecycle")
        try await app.waitFor("ready")
        #expect(app.output.lines == Self.startup, "\(app.transcript)")

        app.signal(signal)
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines == Self.startup + Self.shutdown, "\(app.transcript)")
    }

    @Test func aShutdownRequestedBeforeTheLoopRunsEndsTheProcessWithItsStatus() async throws {
        let app = try FixtureProcess("earlyShutdown")
        let status = await app.waitForExit()
        #expect(status == 5, "\(app.transcript)")
        #expect(app.output.lines == [
            "willBind", "didBind", "appear app", "appear earlyShutdown",
            "shutting down", "disappear earlyShutdown", "disappear app",
        ], "\(app.transcript)")
    }

    @Test func aProcessWhoseLoopHasNothingKeepingItAliveExitsByItself() async throws {
        let app = try FixtureProcess("unref")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        // The unref'd 5 ms timer may tick a few times while the tree winds
        // down, never for long.
        let ticks = app.output.lines.filter { $0 == "tick" }.count
        #expect(ticks <= 3, "\(app.transcript)")
        #expect(app.output.lines.contains("disappear app"), "\(app.transcript)")
    }

    @Test func aShutdownPastItsDeadlineClosesHandlesByForceAndExitsWithTheForcedStatus() async throws {
        // Real time on purpose: the deadline is a libuv timer on the real
        // loop, and what it closes by force are real handles. 300 ms keeps
        // the test short; only its status and output are checked, not its
        // duration.
        let app = try FixtureProcess("deadline", environment: ["COMPOSE_DEADLINE_MS": "300"])
        try await app.waitFor("appear deadline")
        app.signal(SIGTERM)
        let status = await app.waitForExit()
        #expect(status == 3, "\(app.transcript)")
        #expect(app.output.lines.suffix(3) == ["shutting down", "disappear deadline", "disappear app"], "\(app.transcript)")
        #expect(app.errors.text.contains("deadline"), "\(app.transcript)")
        #expect(!app.errors.text.contains("uv_loop_close"), "\(app.transcript)")
    }
}

/// Supervision in the real runtime: restarts wait on libuv timers, and a
/// supervisor that gives up at the top ends the process with status 70.
@Suite struct SupervisedProcessTests {
    @Test func aSupervisorGivingUpAtTheTopEndsTheProcessWithStatus70() async throws {
        // Real time on purpose: the subject is the live runtime (libuv
        // timers for the backoff, real child processes, the process's exit
        // status). The backoff is 20 ms then 40 ms; only the order and the
        // status are checked, not durations.
        let app = try FixtureProcess("supervised")
        let status = await app.waitForExit()
        #expect(status == 70, "\(app.transcript)")
        #expect(app.output.lines.filter { !$0.hasPrefix("appear") && !$0.hasPrefix("disappear") && $0 != "willBind" && $0 != "didBind" } == [
            "worker started",
            "restarted worker (1) after 0.02 seconds", "worker started",
            "restarted worker (2) after 0.04 seconds", "worker started",
            "gave up", "shutting down",
        ], "\(app.transcript)")
    }
}
