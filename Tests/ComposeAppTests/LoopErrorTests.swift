import Foundation
import Testing

/// How a failing libuv call reaches the app.
@Suite struct LoopErrorTests {
    @Test func aFailingLibuvCallNamesTheCallTheErrorAndTheContext() async throws {
        let app = try FixtureProcess("loopError")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("error: uv_pipe_open failed: EBADF (bad file descriptor) for file descriptor 987"), "\(app.transcript)")
        #expect(app.output.lines.contains("operation: uv_pipe_open name: EBADF"), "\(app.transcript)")
    }
}
