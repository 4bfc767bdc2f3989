@_spi(Testing) import ComposeApp
import Foundation
import Synchronization
import Testing

/// What the workers-mode parent tells systemd, from its workers'
/// notifications, without processes.
@Suite struct WorkerReadinessStateTests {
    static func lines(_ text: String) -> [(key: Substring, value: Substring)] {
        WorkerReadiness.assignments(of: Array(text.utf8))
    }

    @Test func theServiceIsReadyOnceEveryWorkerIsAndOnlyOnce() {
        var readiness = WorkerReadiness(count: 2)
        readiness.started(0)
        readiness.started(1)
        #expect(readiness.status == "0 of 2 workers ready")
        #expect(readiness.received(Self.lines("READY=1"), from: 0, now: 0) == [])
        #expect(readiness.status == "1 of 2 workers ready")
        #expect(readiness.received(Self.lines("STATUS=busy\nREADY=1"), from: 1, now: 0) == [.ready])
        #expect(readiness.status == "2 of 2 workers ready")
        // A replaced worker's READY=1 is no news to systemd.
        #expect(readiness.exited(1) == nil)
        #expect(readiness.status == "1 of 2 workers ready")
        readiness.started(1)
        #expect(readiness.received(Self.lines("READY=1"), from: 1, now: 0) == [])
    }

    @Test func aWorkerThatDiesBeforeItIsReadyHoldsTheServiceBackUntilItsReplacementIs() {
        var readiness = WorkerReadiness(count: 2)
        readiness.started(0)
        readiness.started(1)
        _ = readiness.received(Self.lines("READY=1"), from: 0, now: 0)
        #expect(readiness.exited(1) == nil)
        readiness.started(1)
        #expect(!readiness.hasBeenReady)
        #expect(readiness.received(Self.lines("READY=1"), from: 1, now: 0) == [.ready])
    }

    @Test func aReloadIsOverWhenEveryRunningWorkerSaidReadyAfterItOrExited() {
        var readiness = WorkerReadiness(count: 3)
        for index in 0..<3 {
            readiness.started(index)
            _ = readiness.received(Self.lines("READY=1"), from: index, now: 0)
        }
        #expect(readiness.reloadBegan() == nil)
        #expect(readiness.status == "reloading: 0 of 3 workers ready")
        #expect(readiness.received(Self.lines("RELOADING=1\nMONOTONIC_USEC=5"), from: 0, now: 0) == [])
        #expect(readiness.received(Self.lines("READY=1"), from: 0, now: 0) == [])
        #expect(readiness.received(Self.lines("READY=1"), from: 1, now: 0) == [])
        #expect(readiness.status == "reloading: 2 of 3 workers ready")
        // The last one dies instead: the reload is over all the same.
        #expect(readiness.exited(2) == .ready)
        #expect(readiness.status == "2 of 3 workers ready")
        #expect(!readiness.isReloading)
    }

    @Test func stoppingEndsAReloadAndCountsTheWorkersLeft() {
        var readiness = WorkerReadiness(count: 2)
        readiness.started(0)
        readiness.started(1)
        _ = readiness.reloadBegan()
        readiness.stoppingBegan()
        #expect(readiness.status == "stopping: 2 of 2 workers left")
        #expect(readiness.received(Self.lines("STOPPING=1"), from: 0, now: 0) == [])
        #expect(readiness.received(Self.lines("READY=1"), from: 1, now: 0) == [])
        #expect(readiness.exited(0) == nil)
        #expect(readiness.status == "stopping: 1 of 2 workers left")
    }

    @Test func onlyTimeoutExtensionsThatAskForMoreArePassedOn() {
        var readiness = WorkerReadiness(count: 2)
        readiness.started(0)
        readiness.started(1)
        let second: UInt64 = 1_000_000_000
        #expect(readiness.received(Self.lines("EXTEND_TIMEOUT_USEC=5000000"), from: 0, now: 10 * second) == [.extendTimeout(microseconds: 5_000_000)])
        // Until 14 s: within the 15 s already asked for.
        #expect(readiness.received(Self.lines("EXTEND_TIMEOUT_USEC=2000000"), from: 1, now: 12 * second) == [])
        #expect(readiness.received(Self.lines("EXTEND_TIMEOUT_USEC=4000000"), from: 1, now: 12 * second) == [.extendTimeout(microseconds: 4_000_000)])
        for junk in ["EXTEND_TIMEOUT_USEC=-1", "EXTEND_TIMEOUT_USEC=soon", "EXTEND_TIMEOUT_USEC=99999999999999999999"] {
            #expect(readiness.received(Self.lines(junk), from: 0, now: 12 * second) == [], "\(junk)")
        }
        // Nothing from a slot that runs no worker.
        #expect(readiness.received(Self.lines("EXTEND_TIMEOUT_USEC=90000000"), from: 5, now: 12 * second) == [])
    }
}

/// The fixture's `workers` scenario run with `--workers 2` under a Unix
/// datagram socket standing in for systemd: the parent says READY=1 only
/// once both workers are, replaces one killed with SIGKILL while the port
/// keeps serving, reloads at SIGHUP, and gives up past its restart limit.
@Suite struct WorkerReadinessTests {
    /// What a client got from the port.
    enum Probe: Equatable {
        /// Greeted by the worker with this process ID, and echoed.
        case served(pid: Int32)
        /// `connect` failed with this error (`ECONNREFUSED`: nothing
        /// listened).
        case connectFailed(Int32)
        /// Connected, then the connection broke (reset, closed, timed out)
        /// before the greeting and the echo.
        case broken
    }

    /// One client: connects to 127.0.0.1:`port`, reads the greeting, and
    /// checks that a line comes back. Blocking, with 2 s timeouts.
    static func probe(port: UInt16) -> Probe {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .connectFailed(errno) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return .connectFailed(errno) }
        guard let greeting = readLine(fd), greeting.hasPrefix("worker pid "), let pid = Int32(greeting.dropFirst("worker pid ".count)) else {
            return .broken
        }
        let ping = Array("ping\n".utf8)
        guard send(fd, ping, ping.count, Int32(MSG_NOSIGNAL)) == ping.count, readLine(fd) == "ping" else { return .broken }
        return .served(pid: pid)
    }

    /// Reads up to a newline, byte by byte (the lines are short).
    private static func readLine(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 200 {
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }

    /// Clients connecting one after the other on a thread of their own,
    /// each noted with when it began, until stopped.
    final class Prober: Sendable {
        /// What the prober thread shares with the test.
        private final class Shared: Sendable {
            let results = Mutex<[(began: ContinuousClock.Instant, probe: Probe)]>([])
            let stopped = Atomic(false)
            let done = Atomic(false)
        }

        private let shared = Shared()

        init(port: UInt16) {
            let thread = Thread { [shared] in
                while !shared.stopped.load(ordering: .acquiring) {
                    let began = ContinuousClock.now
                    let probe = WorkerReadinessTests.probe(port: port)
                    shared.results.withLock { $0.append((began, probe)) }
                }
                shared.done.store(true, ordering: .releasing)
            }
            thread.name = "WorkerReadinessTests prober"
            thread.start()
        }

        var all: [(began: ContinuousClock.Instant, probe: Probe)] {
            shared.results.withLock { $0 }
        }

        /// Stops the thread and waits for its last client.
        func stop() async {
            shared.stopped.store(true, ordering: .releasing)
            while !shared.done.load(ordering: .acquiring) {
                try? await Task.sleep(for: .milliseconds(10))   // polling the prober thread's last client (at most 2 s)
            }
        }
    }

    static func startWorkers(
        port: UInt16,
        systemd: NotifyListener,
        environment: [String: String] = [:]
    ) throws -> FixtureProcess {
        try FixtureProcess(
            executable: "ComposeFixture",
            arguments: ["--workers", "2"],
            name: "workers",
            environment: [
                "COMPOSE_FIXTURE": "workers",
                "COMPOSE_PORT": "\(port)",
                "NOTIFY_SOCKET": systemd.address,
            ].merging(environment) { _, new in new }
        )
    }

    static func waitFor(_ systemd: NotifyListener, _ message: String, count: Int = 1) async -> Bool {
        await systemd.datagrams.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0 == message }.count >= count
        }
    }

    @Test func readyOnceBothWorkersAreAKilledOneIsReplacedWithoutANewReadyAndAReloadEndsWithReady() async throws {
        let systemd = try NotifyListener(abstract: true)
        systemd.startReading()
        let port = try TestSocket.freePort()
        let parent = try Self.startWorkers(port: port, systemd: systemd)
        #expect(await Self.waitFor(systemd, "READY=1"), "\(systemd.messages)\n\(parent.transcript)")
        #expect(await Self.waitFor(systemd, "STATUS=2 of 2 workers ready"), "\(systemd.messages)")
        let start = systemd.messages
        // Each worker's READY=1 came first: the parent counted one, then both.
        let one = try #require(start.firstIndex(of: "STATUS=1 of 2 workers ready"), "\(start)")
        #expect(one < start.firstIndex(of: "READY=1")!, "\(start)")
        // Both listened before they said so (their lines may reach the
        // test after the datagrams), and the port serves.
        let bothListened = await parent.output.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0.hasSuffix("listening on \(port)") }.count == 2
        }
        #expect(bothListened, "\(parent.transcript)")
        guard case .served = Self.probe(port: port) else {
            Issue.record("not served: \(parent.transcript)")
            return
        }

        let pids = WorkersTests.workerPIDs(parent)
        kill(pids[0], SIGKILL)
        #expect(await Self.waitFor(systemd, "STATUS=1 of 2 workers ready", count: 2), "\(systemd.messages)\n\(parent.transcript)")
        #expect(await Self.waitFor(systemd, "STATUS=2 of 2 workers ready", count: 2), "\(systemd.messages)\n\(parent.transcript)")
        #expect(WorkersTests.workerPIDs(parent).count == 3, "\(parent.transcript)")
        #expect(systemd.messages.filter { $0 == "READY=1" }.count == 1, "\(systemd.messages)")

        parent.signal(SIGHUP)
        #expect(await Self.waitFor(systemd, "READY=1", count: 2), "\(systemd.messages)\n\(parent.transcript)")
        let reload = Array(systemd.messages.drop { !$0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") })
        #expect(reload.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true, "\(systemd.messages)")
        #expect(reload.contains("STATUS=reloading: 0 of 2 workers ready"), "\(reload)")
        // READY=1 only once both reloaded.
        let ready = try #require(reload.firstIndex(of: "READY=1"))
        #expect(reload[..<ready].contains("STATUS=reloading: 1 of 2 workers ready"), "\(reload)")
        // Each worker's SIGHUP observers ran too.
        let reloaded = await parent.output.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0.hasSuffix("reloaded") }.count == 2
        }
        #expect(reloaded, "\(parent.transcript)")

        parent.signal(SIGTERM)
        #expect(await parent.waitForExit() == 0, "\(parent.transcript)")
        #expect(await Self.waitFor(systemd, "STOPPING=1"), "\(systemd.messages)")
        #expect(systemd.messages.contains("STATUS=stopping: 2 of 2 workers left"), "\(systemd.messages)")
        // The workers' own STOPPING=1 and STATUS= went to the parent only.
        #expect(systemd.messages.filter { $0 == "STOPPING=1" }.count == 1, "\(systemd.messages)")
        #expect(!systemd.messages.contains { $0.hasPrefix("STATUS=Draining") }, "\(systemd.messages)")
    }

    @Test func pastTheRestartLimitTheParentStopsTheOtherWorkerAndExits70NeverReady() async throws {
        let systemd = try NotifyListener(abstract: true)
        systemd.startReading()
        let port = try TestSocket.freePort()
        let parent = try Self.startWorkers(port: port, systemd: systemd, environment: [
            "COMPOSE_FAILING_WORKER": "1",
            "COMPOSE_WORKER_BACKOFF_MS": "20",
            "COMPOSE_WORKER_RESTARTS": "3",
        ])
        #expect(await parent.waitForExit() == WorkerOptions.restartLimitExitStatus, "\(parent.transcript)")
        #expect(parent.output.lines.filter { $0 == "worker 1 fails" }.count == 4, "\(parent.transcript)")
        #expect(parent.errors.text.contains("more than 3 restarts"), "\(parent.transcript)")
        // Worker 0 was told to stop, and did.
        let first = try #require(WorkersTests.workerPIDs(parent).first)
        #expect(WorkersTests.isGone(first))
        #expect(parent.errors.text.contains("Worker 0 (pid \(first)) "), "\(parent.transcript)")
        #expect(await Self.waitFor(systemd, "STOPPING=1"), "\(systemd.messages)")
        #expect(!systemd.messages.contains("READY=1"), "\(systemd.messages)")
    }

    @Test func aWorkerKilledWith9IsReplacedWithin1SecondPlusBackoffAndThePortNeverRefuses() async throws {
        let systemd = try NotifyListener(abstract: true)
        systemd.startReading()
        let port = try TestSocket.freePort()
        let parent = try Self.startWorkers(port: port, systemd: systemd)
        #expect(await Self.waitFor(systemd, "READY=1"), "\(systemd.messages)\n\(parent.transcript)")
        let pids = WorkersTests.workerPIDs(parent)
        try #require(pids.count == 2, "\(parent.transcript)")

        let prober = Prober(port: port)
        // Some clients before the kill.
        for _ in 0..<400 where prober.all.count < 10 {
            try await Task.sleep(for: .milliseconds(5))   // polling the prober thread's results
        }
        #expect(prober.all.count >= 10)
        let killed = ContinuousClock.now
        kill(pids[0], SIGKILL)
        let replaced = await parent.errors.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0.contains("started: pid ") }.count == 3
        }
        #expect(replaced, "\(parent.transcript)")
        let reported = ContinuousClock.now
        let newPID = try #require(WorkersTests.workerPIDs(parent).last)
        // Wait until a client is served by the new worker.
        var servedAt: ContinuousClock.Instant?
        // And until enough clients began after the parent reported the
        // death (the new worker may serve first a client that began before).
        func probedAfterReport() -> Int { prober.all.lazy.filter { $0.began > reported }.count }
        for _ in 0..<1000 where servedAt == nil || probedAfterReport() < 20 {
            servedAt = servedAt ?? prober.all.first { $0.probe == .served(pid: newPID) }?.began
            try await Task.sleep(for: .milliseconds(5))   // polling the prober thread's results
        }
        await prober.stop()
        let results = prober.all
        let first = try #require(servedAt, "the new worker served nobody: \(results.suffix(20).map(\.probe))\n\(parent.transcript)")
        // 1 s plus the backoff's longest first delay (100 ms + 20 %).
        #expect(first - killed < .milliseconds(1_120), "served \(first - killed) after the kill")
        // No connection was ever refused.
        #expect(!results.contains { $0.probe == .connectFailed(ECONNREFUSED) }, "\(results.map(\.probe))")
        #expect(!results.contains { if case .connectFailed = $0.probe { true } else { false } }, "\(results.map(\.probe))")
        // Once the parent saw the death, every client was served (before,
        // the dying worker's queue could reset a few).
        let after = results.filter { $0.began > reported }
        #expect(!after.isEmpty)
        #expect(after.allSatisfy { if case .served = $0.probe { true } else { false } }, "\(after.map(\.probe))")
        #expect(after.contains { $0.probe == .served(pid: pids[1]) }, "the surviving worker served nobody")

        parent.signal(SIGTERM)
        #expect(await parent.waitForExit() == 0, "\(parent.transcript)")
    }
}
