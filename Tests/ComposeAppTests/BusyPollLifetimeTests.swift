@_spi(Testing) @testable import ComposeApp
import ComposeTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Busy polling on a loop of its own (not the test context's): it never
/// keeps a loop alive that has nothing left, it lets an idle loop sleep
/// between events, and a torn-down loop ignores the setting.
@MainActor
@Suite(.serialized) struct BusyPollLifetimeTests {
    /// The thread's CPU time in nanoseconds: the loop runs on this thread.
    private func threadCPU() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// A window of an hour, and the loop's only handle a one-shot timer
    /// that counts input as a read would: after it the loop decides to
    /// poll (its idle handle started), and `run()` still returns, since the
    /// idle handle does not keep the loop alive. With the idle handle referenced (tried),
    /// `run()` never returns: the test hangs, which the suite's time
    /// limit reports only when the run is killed.
    @Test(.timeLimit(.minutes(1))) func aLoopWithNothingLeftReturnsWhilePolling() throws {
        let loop = try EventLoop()
        loop.busyPolling = .seconds(3_600)
        let timer = try TimerHandle(loop: loop)
        var fired = 0
        timer.start(after: .milliseconds(1)) {
            fired += 1
            // Input, as a read counts it: a timer's tick alone is none.
            loop.counters.pointee.bytesRead &+= 1
        }
        loop.run()
        #expect(fired == 1)
        #expect(loop.isBusyPolling, "the input started the window, so the last turn polled")
        // A handle that closes itself in its callback: the same.
        let closing = try TimerHandle(loop: loop)
        closing.start(after: .milliseconds(1)) { closing.close() }
        loop.run()
        timer.close()
        #expect(loop.tearDown())
        // Torn down: the setting is ignored, nothing crashes.
        loop.busyPolling = .milliseconds(5)
        #expect(loop.busyPolling == .zero)
        #expect(!loop.isBusyPolling)
    }

    /// Input every 20 ms (a repeating timer counting it as a read would)
    /// and a 1 ms window: the loop polls about 1 ms after each and sleeps
    /// the rest, so over 300 ms this thread uses far less CPU than the
    /// wall time (a loop that kept polling would use all of it).
    @Test(.timeLimit(.minutes(1))) func aLoopWithAPeriodicTimerSleepsBetweenTicks() throws {
        let loop = try EventLoop()
        loop.busyPolling = .milliseconds(1)
        let ticker = try TimerHandle(loop: loop)
        let end = try TimerHandle(loop: loop)
        var ticks = 0
        ticker.start(after: .milliseconds(20), repeat: .milliseconds(20)) {
            ticks += 1
            // A peer's request every 20 ms, counted as a read counts it.
            loop.counters.pointee.bytesRead &+= 1
        }
        end.start(after: .milliseconds(300)) { ticker.close(); end.close() }
        let wallStart = loop.nanoseconds
        let cpuStart = threadCPU()
        loop.run()
        let wall = loop.nanoseconds - wallStart
        let cpu = threadCPU() - cpuStart
        #expect(ticks >= 10)
        #expect(cpu < wall / 3, "CPU \(cpu) ns over \(wall) ns: the loop did not sleep between ticks")
        #expect(loop.tearDown())
    }
}

/// A root with nothing in it: the test only reads settings.
private struct NoContent: Component {
    var observers: Void { None }
}

/// The app's own window converted to microseconds without wrapping.
@MainActor
@Suite struct BusyPollWindowConversionTests {
    /// `.seconds(.max)` (a window that never ends) is above the limit:
    /// reported, and 10 ms used. The product of seconds and 1,000,000
    /// wrapped to -1,000,000 before: reported as negative, and 0 (off)
    /// used.
    @Test func aWindowOfCenturiesIsAboveTheLimitNotNegative() {
        let app = TestApp(root: NoContent())
        app.context.configuration = AppConfiguration(arguments: [])
        #expect(RuntimeSettings(app.context.configuration, workers: 0, busyPolling: .seconds(Int64.max)).busyPolling == .milliseconds(10))
        #expect(RuntimeSettings(app.context.configuration, workers: 0, busyPolling: .seconds(18_446_744_073_710)).busyPolling == .milliseconds(10))
        #expect(RuntimeSettings(app.context.configuration, workers: 0, busyPolling: .seconds(Int64.min)).busyPolling == .zero)
        #expect(app.diagnostics.map(\.code) == [.settingOutOfRange, .settingOutOfRange, .settingOutOfRange])
        #expect(app.diagnostics.first?.message.contains("10000 is used") == true, "\(app.diagnostics.map(\.message))")
    }
}
