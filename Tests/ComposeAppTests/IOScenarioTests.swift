import Foundation
import Testing

/// The I/O scenarios `make check-leaks` runs under valgrind, run here as
/// plain processes: each must finish its work and shut down cleanly.
@Suite struct IOScenarioTests {
    @Test func tcpClientsConnectEchoAndCloseInEveryWayThenTheAppShutsDown() async throws {
        let app = try FixtureProcess("tcp")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("tcp done"), "\(app.transcript)")
        #expect(app.output.lines.last == "disappear app", "\(app.transcript)")
        #expect(!app.errors.text.contains("leaked"), "\(app.transcript)")
    }

    @Test func childProcessesRunInTurnAndTheShutdownTerminatesTheOneLeftRunning() async throws {
        let app = try FixtureProcess("process")
        let line = try await app.waitForLine(startingWith: "sleeper ")
        let pid = try #require(Int32(line.dropFirst("sleeper ".count)), "\(app.transcript)")
        #expect(pid > 0, "\(app.transcript)")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("process done"), "\(app.transcript)")
        // `sleep 30` was terminated, not waited for: waiting would have
        // run into the shutdown deadline (exit status 3).
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "sleeper \(pid) is still there")
        #expect(!app.errors.text.contains("leaked"), "\(app.transcript)")
    }

    @Test func aFileWatcherSeesEveryCreateModifyDeleteCycleThenTheAppShutsDown() async throws {
        let app = try FixtureProcess("files")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("files done"), "\(app.transcript)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/compose-fixture-files-\(app.pid)"))
        #expect(!app.errors.text.contains("leaked"), "\(app.transcript)")
    }

    /// Reads in libuv's thread pool when the app shuts down (FIFOs
    /// without a writer among them): the shutdown waits for each request's
    /// callback, every read answers, and the app exits 0 well within its
    /// deadline (2 s here), leaving no handle open.
    @Test func readsInFlightAtTheShutdownAllAnswerAndTheAppExitsWithinItsDeadline() async throws {
        let app = try FixtureProcess("readFiles", environment: ["COMPOSE_DEADLINE_MS": "2000"])
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("reads done 32 4"), "\(app.transcript)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/compose-fixture-reads-\(app.pid)"))
        #expect(!app.errors.text.contains("deadline"), "\(app.transcript)")
        #expect(!app.errors.text.contains("leaked"), "\(app.transcript)")
    }
}
