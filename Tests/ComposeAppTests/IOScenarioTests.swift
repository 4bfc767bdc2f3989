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
}
