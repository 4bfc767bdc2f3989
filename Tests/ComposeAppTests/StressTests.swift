import Foundation
import Testing

/// Thousands of handles opened and closed in every way.
@Suite struct StressTests {
    @Test func openingAndClosingManyHandlesEndsCleanly() async throws {
        let started = ContinuousClock.now
        let app = try FixtureProcess("stress")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("stress done"), "\(app.transcript)")
        #expect(ContinuousClock.now - started < .seconds(10))
        // A leaked handle makes uv_loop_close fail, which the runtime logs.
        #expect(!app.errors.text.contains("leaked"), "\(app.transcript)")
    }
}
