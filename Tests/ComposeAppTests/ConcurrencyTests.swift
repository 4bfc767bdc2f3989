import Foundation
import Testing

/// Swift concurrency and the main dispatch queue inside a running app.
@Suite struct ConcurrencyTests {
    @Test func tasksSleepsMainQueueAndCrossThreadSendsRunOnTheLoop() async throws {
        let app = try FixtureProcess("async")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        let lines = app.output.lines
        #expect(lines.contains("received 42 on main"), "\(app.transcript)")
        let slept = lines.firstIndex(of: "slept")
        let dispatched = lines.firstIndex(of: "dispatched")
        let shutdown = lines.firstIndex(of: "shutting down")
        #expect(slept != nil && dispatched != nil && shutdown != nil, "\(app.transcript)")
        if let slept, let dispatched, let shutdown {
            #expect(slept < dispatched && dispatched < shutdown, "\(app.transcript)")
        }
    }
}
