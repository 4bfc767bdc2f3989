@_spi(Testing) import ComposeApp
import Testing

/// Restarting a LoopTimer on the real loop (what an idle timeout restarted
/// by every line does): the countdown begins again from the restart, and
/// the timer fires once. Real time is the subject.
@MainActor
@Suite(.serialized, .liveLoop) struct TimerRestartTests {
    @Test func aRestartPushesTheFiringBackAndItFiresOnce() {
        let clock = ContinuousClock()
        // 300 ms, restarted every 40 ms: a stall of the test process (a
        // loaded machine) shorter than 260 ms cannot make it fire early.
        let timer = LoopTimer(after: .milliseconds(300), startsWithComponent: false)
        var firings: [Duration] = []
        let start = clock.now
        timer += { firings.append(clock.now - start) }
        timer.start()
        // Restarted four times, 40 ms apart: never 300 ms without a restart.
        var restarted = start
        for _ in 0..<4 {
            #expect(LoopDriver.run(until: { clock.now - restarted >= .milliseconds(40) }))
            #expect(firings.isEmpty, "fired at \(firings) despite the restarts")
            restarted = clock.now
            timer.start()
            #expect(timer.isRunning)
        }
        #expect(LoopDriver.run(until: { !firings.isEmpty }))
        // libuv keeps whole milliseconds: at most 1 ms early.
        let sinceRestart = (firings.first ?? .zero) - (restarted - start)
        #expect(sinceRestart >= .milliseconds(299), "fired \(sinceRestart) after the last restart")
        #expect(!timer.isRunning)
        // A one-shot timer fires once per start.
        #expect(LoopDriver.run(until: { clock.now - restarted >= .milliseconds(600) }))
        #expect(firings.count == 1)
        timer.close()
    }
}
