import Foundation
import Testing

/// Thousands of handles opened and closed in every way.
@Suite struct StressTests {
    @Test func openingAndClosingManyHandlesEndsCleanly() async throws {
        // No wall-clock bound of its own: waitForExit's failure timeout
        // turns a hang into a failure, and a 10 s bound failed at 10.05 s
        // under AddressSanitizer on a loaded machine.
        let app = try FixtureProcess("stress")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("stress done"), "\(app.transcript)")
        // A leaked handle makes uv_loop_close fail, which the runtime logs.
        #expect(!app.errors.text.contains("leaked"), "\(app.transcript)")
    }
}
