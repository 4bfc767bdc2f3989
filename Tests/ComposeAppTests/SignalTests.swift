import Foundation
import Testing

/// Process signals as emitters.
@Suite struct SignalTests {
    @Test func hangupAndUser1AreDeliveredAndHangupDoesNotShutDown() async throws {
        let app = try FixtureProcess("signals")
        try await app.waitFor("ready")

        app.signal(SIGHUP)
        try await app.waitFor("hup")
        app.signal(SIGUSR1)
        try await app.waitFor("usr1")
        // Both were handled by the running app: no shutdown began.
        #expect(app.isRunning, "\(app.transcript)")
        #expect(!app.output.lines.contains("shutting down"), "\(app.transcript)")

        app.signal(SIGTERM)
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.suffix(2) == ["shutting down", "disappear app"], "\(app.transcript)")
    }
}

/// A parent may start the app with signals blocked (a child inherits the
/// mask of the thread that spawned it); the app must still hear them.
@Suite struct BlockedSignalTests {
    @Test func signalsBlockedByTheParentAreStillHandled() async throws {
        let app = try FixtureProcess("signals", blockedSignals: [SIGHUP, SIGINT, SIGTERM, SIGUSR1])
        try await app.waitFor("ready")
        app.signal(SIGHUP)
        try await app.waitFor("hup")
        app.signal(SIGTERM)
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("shutting down"), "\(app.transcript)")
    }
}
