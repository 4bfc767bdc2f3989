import Foundation
import Testing

/// Driving the loop from code the loop runs is a precondition failure
/// (libuv's `uv_run` is not reentrant, and the read path delivers to
/// emitters unretained): the fixture does it on purpose and must die with
/// a message naming the call, never go on.
@Suite struct LoopReentryTests {
    /// Runs the `reentry` scenario (`variant` from COMPOSE_REENTRY) and
    /// checks that it crashed with the precondition's message for `call`.
    private func expectReentryCrash(_ variant: String, naming call: String, stdin line: String? = nil) async throws {
        let app = try FixtureProcess("reentry", environment: ["COMPOSE_REENTRY": variant])
        try await app.waitFor("appear reentry \(variant)")
        // A write that fails (the child already gone) is not the finding:
        // the expectations below say, with the transcript, how it ended.
        if let line { _ = try? app.writeStdin(line + "\n") }
        let status = await app.waitForExit()
        // Swift's traps are SIGILL on x86_64 and SIGTRAP on arm64.
        #expect(status == -SIGILL || status == -SIGTRAP, "\(app.transcript)")
        #expect(app.output.lines.contains("reentering"), "\(app.transcript)")
        #expect(!app.output.lines.contains { $0.hasPrefix("survived") }, "\(app.transcript)")
        #expect(app.errors.text.contains("\(call) called from inside a loop callback or an observer: the loop is not reentrant (uv_run)"), "\(app.transcript)")
    }

    @Test func runningTheLoopFromATimerObserverIsAPreconditionFailure() async throws {
        try await expectReentryCrash("timer", naming: "LoopDriver.run(until:timeout:)")
    }

    @Test func settlingTheLoopFromAReadDeliveryIsAPreconditionFailure() async throws {
        try await expectReentryCrash("stdin", naming: "LoopDriver.settle()", stdin: "hello")
    }

    @Test func settlingTheLoopFromATaskTheLoopRunsIsAPreconditionFailure() async throws {
        try await expectReentryCrash("task", naming: "LoopDriver.settle()")
    }
}
