@_spi(Testing) @testable import ComposeApp
import ComposeTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Busy polling's decision (`BusyPoll`) on a virtual clock: nanoseconds
/// and event counts given by the test.
@Suite struct BusyPollDecisionTests {
    /// `poll.shouldPoll(events:now:)`, outside `#expect` (which cannot
    /// call a mutating method).
    private func look(_ poll: inout BusyPoll, events: UInt64, now: UInt64) -> Bool {
        poll.shouldPoll(events: events, now: now)
    }

    @Test func itPollsWhileTheLastEventIsYoungerThanTheWindowThenWaits() {
        var poll = BusyPoll()
        poll.window = 50_000
        // An event (the count moved) at 1 ms.
        #expect(look(&poll, events: 1, now: 1_000_000))
        #expect(look(&poll, events: 1, now: 1_049_999))
        #expect(!look(&poll, events: 1, now: 1_050_000))
        #expect(!poll.isPolling)
        // Another event starts the window again, from its own time.
        #expect(look(&poll, events: 3, now: 2_000_000))
        #expect(poll.isPolling)
        #expect(look(&poll, events: 3, now: 2_040_000))
        #expect(!look(&poll, events: 3, now: 2_060_000))
    }

    @Test func withoutAWindowOrBeforeAnyEventItWaits() {
        var off = BusyPoll()
        #expect(!look(&off, events: 1, now: 10))
        #expect(!look(&off, events: 2, now: 11))
        var fresh = BusyPoll()
        fresh.window = 50_000
        // No event counted yet: nothing to keep polling for, however
        // early the clock reads.
        #expect(!look(&fresh, events: 0, now: 10))
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
        #expect(help.contains("Poll for I/O this many microseconds after each event"), "\(help)")
    }
}

/// Busy polling on a real loop: after an event the loop polls without
/// waiting, and one window after its last event it waits again.
@MainActor
@Suite(.serialized, .liveLoop) struct BusyPollLoopTests {
    @Test func afterAnEventTheLoopTurnsWithoutWaiting() {
        // Waiting: in 100 ms the loop turns for little more than the
        // driver's 10 ms guard ticks.
        let quiet = LoopDriver.turn
        #expect(!LoopDriver.run(until: { LoopDriver.turn - quiet >= 1_000 }, timeout: .milliseconds(100)))
        #expect(LoopDriver.turn - quiet < 100)
        // Polling for a second after each event (a guard tick is one): a
        // thousand turns come without another event.
        LoopDriver.busyPolling = .seconds(1)
        #expect(LoopDriver.busyPolling == .seconds(1))
        let busy = LoopDriver.turn
        #expect(LoopDriver.run(until: { LoopDriver.turn - busy >= 1_000 }, timeout: .seconds(5)))
        #expect(LoopDriver.isBusyPolling)
        LoopDriver.busyPolling = .zero
        #expect(!LoopDriver.isBusyPolling)
    }

    @Test func aWindowPastNanosecondsSaturatesAndANegativeOneIsOff() {
        LoopDriver.busyPolling = .seconds(Int64.max)
        #expect(LoopDriver.busyPolling == .nanoseconds(Int64.max))
        LoopDriver.busyPolling = .seconds(-1)
        #expect(LoopDriver.busyPolling == .zero)
        #expect(!LoopDriver.isBusyPolling)
    }

    @Test func oneWindowAfterItsLastEventTheLoopWaitsAgain() throws {
        // A listener no one connects to: it keeps the loop alive (a loop
        // with no active handle does not turn at all) and makes no event.
        let listener = TCPServer(port: 0)
        try listener.listen()
        defer { listener.close() }
        LoopDriver.busyPolling = .milliseconds(2)
        defer { LoopDriver.busyPolling = .zero }
        // A guard tick of the driver is an event: the loop polls.
        #expect(LoopDriver.run(until: { LoopDriver.isBusyPolling }, timeout: .seconds(5)))
        // Then only turns that wait for nothing (`settle`, no timer): once
        // more than the window has passed since the last event, the turn
        // decides to wait. Time passing without events is the subject, so
        // the test lets it pass (3 ms each try); a stray event (the main
        // queue's) only starts the window again, hence the tries.
        var waits = false
        for _ in 0..<200 where !waits {
            usleep(3_000)
            LoopDriver.settle()
            waits = !LoopDriver.isBusyPolling
        }
        #expect(waits)
    }
}
