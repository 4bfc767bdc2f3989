import Foundation
import Testing

/// The limits of a graceful shutdown: a second signal, and the deadline.
@Suite struct ShutdownTests {
    @Test func aSecondSignalDuringShutdownExitsAtOnceWith128PlusTheSignal() async throws {
        // A stray timer keeps shutdown from finishing; the deadline is long.
        let app = try FixtureProcess("deadline", environment: ["COMPOSE_DEADLINE_MS": "20000"])
        try await app.waitFor("appear deadline")
        app.signal(SIGTERM)
        try await app.waitFor("shutting down")
        #expect(app.isRunning, "\(app.transcript)")

        let sent = ContinuousClock.now
        app.signal(SIGINT)
        let status = await app.waitForExit()
        let took = ContinuousClock.now - sent
        #expect(status == 130, "\(app.transcript)")
        #expect(took < .seconds(5), "took \(took)")
    }

    @Test func aShutdownPastItsDeadlineClosesHandlesByForceAndExitsWithTheForcedStatus() async throws {
        let app = try FixtureProcess("deadline", environment: ["COMPOSE_DEADLINE_MS": "300"])
        try await app.waitFor("appear deadline")
        let sent = ContinuousClock.now
        app.signal(SIGTERM)
        let status = await app.waitForExit()
        let took = ContinuousClock.now - sent
        #expect(status == 3, "\(app.transcript)")
        #expect(took >= .milliseconds(300), "took \(took)")
        #expect(took < .seconds(10), "took \(took)")
        #expect(app.output.lines.suffix(3) == ["shutting down", "disappear deadline", "disappear app"], "\(app.transcript)")
        #expect(app.errors.text.contains("deadline"), "\(app.transcript)")
    }
}
