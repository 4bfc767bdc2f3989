@_spi(Testing) @testable import ComposeApp
import ComposeTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Busy polling's decision (`BusyPoll`) on a virtual clock: nanoseconds
/// and input counts given by the test.
@Suite struct BusyPollDecisionTests {
    /// `poll.shouldPoll(input:now:)`, outside `#expect` (which cannot
    /// call a mutating method).
    private func look(_ poll: inout BusyPoll, input: UInt64, now: UInt64) -> Bool {
        poll.shouldPoll(input: input, now: now)
    }

    @Test func itPollsWhileTheLastEventIsYoungerThanTheWindowThenWaits() {
        var poll = BusyPoll()
        poll.window = 50_000
        // Input (the count moved) at 1 ms.
        #expect(look(&poll, input: 1, now: 1_000_000))
        #expect(look(&poll, input: 1, now: 1_049_999))
        #expect(!look(&poll, input: 1, now: 1_050_000))
        #expect(!poll.isPolling)
        // More input starts the window again, from its own time.
        #expect(look(&poll, input: 3, now: 2_000_000))
        #expect(poll.isPolling)
        #expect(look(&poll, input: 3, now: 2_040_000))
        #expect(!look(&poll, input: 3, now: 2_060_000))
    }

    @Test func withoutAWindowOrBeforeAnyEventItWaits() {
        var off = BusyPoll()
        #expect(!look(&off, input: 1, now: 10))
        #expect(!look(&off, input: 2, now: 11))
        var fresh = BusyPoll()
        fresh.window = 50_000
        // No input counted yet: nothing to keep polling for, however
        // early the clock reads.
        #expect(!look(&fresh, input: 0, now: 10))
        #expect(!fresh.isPolling)
    }
}

/// A root with nothing in it: these tests only read settings.
private struct SettingsOnly: Component {
    var observers: Void { None }
}

/// The setting `busyPollMicroseconds` over the app's
/// `StartupConfiguration.busyPolling`, and its range.
@MainActor
@Suite struct BusyPollSettingTests {
    @Test func theSettingOverridesTheAppsWindow() {
        let app = TestApp(root: SettingsOnly())
        app.context.configuration = AppConfiguration(arguments: ["--busy-poll-microseconds", "50"])
        #expect(RuntimeSettings(app.context.configuration, workers: 0, busyPolling: .microseconds(20)).busyPolling == .microseconds(50))
        app.context.configuration = AppConfiguration(arguments: [], environment: ["BUSY_POLL_MICROSECONDS": "0"])
        #expect(RuntimeSettings(app.context.configuration, workers: 0, busyPolling: .microseconds(20)).busyPolling == .zero)
        app.context.configuration = AppConfiguration(arguments: [])
        #expect(RuntimeSettings(app.context.configuration, workers: 0, busyPolling: .microseconds(20)).busyPolling == .microseconds(20))
        #expect(RuntimeSettings(app.context.configuration, workers: 0).busyPolling == .zero)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aWindowOutOfRangeIsReportedAndTheNearestInRangeUsed() {
        let app = TestApp(root: SettingsOnly())
        app.context.configuration = AppConfiguration(arguments: ["--busy-poll-microseconds", "50000"])
        #expect(RuntimeSettings(app.context.configuration, workers: 0).busyPolling == .milliseconds(10))
        app.context.configuration = AppConfiguration(arguments: ["--busy-poll-microseconds", "-5"])
        #expect(RuntimeSettings(app.context.configuration, workers: 0).busyPolling == .zero)
        #expect(app.diagnostics.map(\.code) == [.settingOutOfRange, .settingOutOfRange])
        let messages = app.diagnostics.map(\.message)
        #expect(messages.first?.contains("busyPollMicroseconds is 50000; it must be 0 (off) to 10000 (10 ms): 10000 is used.") == true, "\(messages)")
        #expect(messages.last?.contains("busyPollMicroseconds is -5") == true, "\(messages)")
        #expect(messages.last?.contains(": 0 is used.") == true, "\(messages)")
    }

    @Test func theHelpListsIt() {
        let configuration = AppConfiguration.forHelp(options: StartupConfiguration(busyPolling: .microseconds(50)).describingRuntimeSettings().config)
        _ = RuntimeSettings(configuration, workers: 0, busyPolling: .microseconds(50))
        let help = configuration.help(program: "app")
        #expect(help.contains("--busy-poll-microseconds <int>"), "\(help)")
        #expect(help.contains("default: 50"), "\(help)")
        #expect(help.contains("Poll for I/O this many microseconds after each read"), "\(help)")
    }
}

/// Busy polling on a real loop: after input the loop polls without
/// waiting, one window after its last input it waits again, and a timer's
/// tick is not input.
@MainActor
@Suite(.serialized, .liveLoop) struct BusyPollLoopTests {
    /// Reads a line from a child process (`echo`): input, as a request
    /// read from a socket is.
    private func readALine() throws {
        let process = ChildProcess("echo", arguments: ["input"])
        var lines: [String] = []
        process.output += { lines.append($0) }
        try process.start()
        #expect(LoopDriver.run(until: { lines == ["input"] }))
    }

    @Test func afterInputTheLoopTurnsWithoutWaiting() throws {
        // Polling for a second after each input: a thousand turns come
        // without more of it.
        LoopDriver.busyPolling = .seconds(1)
        defer { LoopDriver.busyPolling = .zero }
        #expect(LoopDriver.busyPolling == .seconds(1))
        try readALine()
        let busy = LoopDriver.turn
        #expect(LoopDriver.run(until: { LoopDriver.turn - busy >= 1_000 }, timeout: .seconds(5)))
        #expect(LoopDriver.isBusyPolling)
        LoopDriver.busyPolling = .zero
        #expect(!LoopDriver.isBusyPolling)
    }

    /// A timer's tick is no input: the driver's guard timer ticks every
    /// 10 ms, and with a window of a second the loop still waits between
    /// ticks (a loop that counted them would poll from the first on, and
    /// so would every app's health monitor tick, every 100 ms).
    @Test func aTimersTickIsNotInput() {
        LoopDriver.busyPolling = .seconds(1)
        defer { LoopDriver.busyPolling = .zero }
        let quiet = LoopDriver.turn
        #expect(!LoopDriver.run(until: { LoopDriver.turn - quiet >= 1_000 }, timeout: .milliseconds(100)))
        #expect(LoopDriver.turn - quiet < 100)
        #expect(!LoopDriver.isBusyPolling)
    }

    @Test func aWindowPastNanosecondsSaturatesAndANegativeOneIsOff() {
        LoopDriver.busyPolling = .seconds(Int64.max)
        #expect(LoopDriver.busyPolling == .nanoseconds(Int64.max))
        LoopDriver.busyPolling = .seconds(-1)
        #expect(LoopDriver.busyPolling == .zero)
        #expect(!LoopDriver.isBusyPolling)
    }

    @Test func oneWindowAfterItsLastInputTheLoopWaitsAgain() throws {
        // A listener no one connects to: it keeps the loop alive (a loop
        // with no active handle does not turn at all) and reads nothing.
        let listener = TCPServer(port: 0)
        try listener.listen()
        defer { listener.close() }
        LoopDriver.busyPolling = .milliseconds(2)
        defer { LoopDriver.busyPolling = .zero }
        try readALine()
        #expect(LoopDriver.isBusyPolling)
        // Then only turns that wait for nothing (`settle`, no timer): once
        // more than the window has passed since the last input, the turn
        // decides to wait. Time passing without input is the subject, so
        // the test lets it pass (3 ms each try).
        var waits = false
        for _ in 0..<200 where !waits {
            // Real time: the window is read off the loop's monotonic clock
            // (`uv_hrtime`), which no virtual clock stands in for.
            usleep(3_000)
            LoopDriver.settle()
            waits = !LoopDriver.isBusyPolling
        }
        #expect(waits)
    }
}
