@_spi(Testing) @testable import ComposeApp
import Foundation
import Logging
import Synchronization
import Testing

/// Log lines of one logger, kept for a test to read.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    /// What was logged so far, `LEVEL message` each.
    var entries: [String] { lines.withLock { $0 } }

    /// A logger that records here.
    func logger() -> Logger {
        Logger(label: "capture") { _ in CapturingLogHandler(log: self) }
    }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}

private struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        log.append("\(event.level) \(event.message)")
    }
}

/// The notifier of a live app context, driven by its real event loop,
/// sending real datagrams to a Unix datagram socket bound by the test in
/// place of systemd's (a path, or an abstract name).
@MainActor
@Suite(.serialized, .liveLoop) struct SystemdSocketTests {
    var context: AppContext { AppContext.current! }

    /// The monotonic clock now, in microseconds (what MONOTONIC_USEC is).
    func monotonicMicroseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }

    @Test(arguments: [false, true])
    func everyNotificationArrivesAsOneDatagramInOrder(abstract: Bool) throws {
        let systemd = try NotifyListener(abstract: abstract)
        context.systemd.start(environment: SystemdEnvironment(["NOTIFY_SOCKET": systemd.address]))
        context.shutdown.didStart()
        context.systemd.ready()
        context.systemd.status = "serving 3 clients"
        let before = monotonicMicroseconds()
        context.systemd.reload {}
        let after = monotonicMicroseconds()
        context.systemd.extendTimeout(by: .seconds(20))
        context.shutdown.request(reason: "test")

        let received = systemd.drain()
        #expect(received.count == 6, "\(received)")
        #expect(received.first == "READY=1")
        #expect(received.dropFirst().first == "STATUS=serving 3 clients")
        let reloading = received.dropFirst(2).first?.split(separator: "\n") ?? []
        #expect(reloading.first == "RELOADING=1")
        let stamp = reloading.dropFirst().first.flatMap { $0.hasPrefix("MONOTONIC_USEC=") ? Int64($0.dropFirst(15)) : nil }
        #expect(stamp.map { (before...after).contains($0) } == true, "\(reloading) not in \(before)...\(after)")
        #expect(Array(received.dropFirst(3)) == ["READY=1", "EXTEND_TIMEOUT_USEC=20000000", "STOPPING=1"])
        #expect(context.systemd.failure == nil)
    }

    @Test func aBlockedLoopSendsNoWatchdogPingUntilItRunsAgain() throws {
        let systemd = try NotifyListener(abstract: true)
        let started = ContinuousClock.now
        // 100 ms: pings every 50 ms, so that a few come quickly.
        context.systemd.start(environment: SystemdEnvironment(["NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "100000"]))
        var pings = 0
        #expect(LoopDriver.run(until: {
            pings += systemd.drain().filter { $0 == "WATCHDOG=1" }.count
            return pings >= 3
        }))
        // Three intervals at least (libuv timers may fire up to 1 ms early).
        #expect(ContinuousClock.now - started >= .milliseconds(147))

        // The loop's thread is busy for 300 ms (six intervals): real time,
        // since what is tested is the watchdog's timer against a blocked
        // thread, which virtual time cannot block.
        usleep(300_000)   // real time: the blocked loop is the subject
        #expect(systemd.drain() == [])

        #expect(LoopDriver.run(until: { systemd.drain().contains("WATCHDOG=1") }))
    }

    @Test func aSocketNobodyListensOnIsLoggedOnceAndTheAppCarriesOn() throws {
        let log = CapturedLog()
        let context = try AppContext.live(name: "unheard", logger: log.logger())
        defer { _ = LoopDriver.tearDown(context) }
        context.run {
            context.systemd.start(environment: SystemdEnvironment(["NOTIFY_SOCKET": "/tmp/compose-nobody-\(UUID().uuidString.prefix(8))"]))
            context.shutdown.didStart()
            context.systemd.ready()
            context.systemd.status = "one"
            context.systemd.status = "two"
        }
        #expect(context.systemd.failure?.kind == .notFound, "\(String(describing: context.systemd.failure))")
        #expect(context.systemd.sentCount == 3)
        let complaints = log.entries.filter { $0.contains("Cannot notify systemd") }
        #expect(complaints.count == 1, "\(log.entries)")
        #expect(complaints.first?.hasPrefix("error ") == true)
        #expect(complaints.first?.contains("ENOENT") == true)
    }

    @Test(arguments: ["relative/path", "@", "/" + String(repeating: "x", count: 120), "vsock:2:1234"])
    func anAddressThatIsNoUnixAddressIsLoggedOnceAndNothingIsSent(address: String) throws {
        let log = CapturedLog()
        let context = try AppContext.live(name: "unaddressed", logger: log.logger())
        defer { _ = LoopDriver.tearDown(context) }
        context.run {
            context.systemd.start(environment: SystemdEnvironment(["NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000"]))
            context.shutdown.didStart()
            context.systemd.ready()
        }
        #expect(!context.systemd.isEnabled)
        #expect(context.systemd.sentCount == 0)
        #expect(context.systemd.failure != nil)
        #expect(log.entries.filter { $0.contains("Cannot notify systemd") }.count == 1, "\(log.entries)")
    }

    @Test func withoutNotifySocketNoSocketIsOpenedAndNoWatchdogRuns() throws {
        let handles = context.eventLoop?.openHandleCount
        context.systemd.start(environment: SystemdEnvironment(["WATCHDOG_USEC": "100000"]))
        context.shutdown.didStart()
        context.systemd.ready()
        context.systemd.status = "unseen"
        #expect(!context.systemd.isEnabled)
        #expect(context.systemd.watchdogInterval == nil)
        #expect(context.systemd.sentCount == 0)
        #expect(context.eventLoop?.openHandleCount == handles)
    }
}
