import Foundation
import Testing

/// LoopTimer on the real loop and the real clock. Real time is the
/// subject: libuv's cached "now" lags behind after slow synchronous work,
/// and a timer counted from it would fire early. (Timers on virtual time:
/// VirtualTimerTests.)
@Suite struct TimerTests {
    /// `tick <n> <ms>` and `oneshot <ms>` lines of the `timers` scenario.
    static func milliseconds(of lines: [String], prefix: String) -> [Int] {
        lines.compactMap { line in
            let words = line.split(separator: " ")
            guard words.first.map(String.init) == prefix, let last = words.last else { return nil }
            return Int(last)
        }
    }

    @Test func repeatingAndOneShotTimersFireOnTime() async throws {
        let app = try FixtureProcess("timers")
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        let lines = app.output.lines
        #expect(lines.contains("done"), "\(app.transcript)")

        let ticks = Self.milliseconds(of: lines, prefix: "tick")
        #expect(lines.filter { $0.hasPrefix("tick ") }.map { $0.split(separator: " ")[1] } == ["1", "2", "3", "4", "5"], "\(app.transcript)")
        for (index, elapsed) in ticks.enumerated() {
            let due = 20 * (index + 1)
            // libuv keeps time in whole milliseconds, so a firing may come
            // up to 1 ms before the exact instant; never earlier. The upper
            // bound is loose for a loaded machine.
            #expect(elapsed >= due - 1, "tick \(index + 1) at \(elapsed) ms\n\(app.transcript)")
            #expect(elapsed <= due + 200, "tick \(index + 1) at \(elapsed) ms\n\(app.transcript)")
        }
        let oneshot = Self.milliseconds(of: lines, prefix: "oneshot")
        #expect(oneshot.count == 1, "\(app.transcript)")
        #expect(oneshot.allSatisfy { $0 >= 49 && $0 <= 250 }, "\(app.transcript)")
    }
}
