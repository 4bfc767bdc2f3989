@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// The workers mode's restart decisions, without processes.
@Suite struct WorkerRestartsTests {
    let options = WorkerOptions(
        count: 2,
        backoff: Backoff(initial: .milliseconds(100), maximum: .seconds(2), jitter: 0.2),
        stablePeriod: .seconds(10),
        maximumRestarts: 3,
        restartPeriod: .seconds(60)
    )

    @Test func consecutiveFailuresWaitLongerWithinTheJitterAndAStableRunStartsAgain() {
        var restarts = WorkerRestarts(options: WorkerOptions(count: 1, backoff: options.backoff, maximumRestarts: 100))
        var delays: [Duration] = []
        for (second, jitter) in [(0, 0.0), (1, 1.0), (2, 0.5)] {
            let decision = restarts.workerExited(0, status: 1, signal: 0, ranFor: .seconds(1), now: UInt64(second) * 1_000_000_000, jitterUnit: jitter)
            guard case .restart(let delay) = decision else {
                Issue.record("\(decision)")
                return
            }
            delays.append(delay)
        }
        #expect(delays == [.milliseconds(80), .milliseconds(240), .milliseconds(400)])
        // It ran past the stable period: a first failure again.
        let after = restarts.workerExited(0, status: 0, signal: 9, ranFor: .seconds(11), now: 3_000_000_000, jitterUnit: 0.5)
        #expect(after == .restart(after: .milliseconds(100)))
    }

    @Test func aWorkerThatExits0ByItselfIsLeftAndOneKilledBySignalIsRestarted() {
        var restarts = WorkerRestarts(options: options)
        #expect(restarts.workerExited(1, status: 0, signal: 0, ranFor: .seconds(1), now: 0, jitterUnit: 0.5) == .leave)
        #expect(restarts.workerExited(1, status: 0, signal: SIGKILL, ranFor: .seconds(1), now: 0, jitterUnit: 0.5) == .restart(after: .milliseconds(100)))
    }

    /// Exit 64 is a wrong command line, which a restart repeats.
    @Test func aWorkerExitingWithTheUsageErrorStatusIsNotRestarted() {
        var restarts = WorkerRestarts(options: options)
        #expect(restarts.workerExited(0, status: 64, signal: 0, ranFor: .milliseconds(50), now: 0, jitterUnit: 0.5) == .usageError)
        #expect(restarts.workerExited(0, status: 63, signal: 0, ranFor: .milliseconds(50), now: 0, jitterUnit: 0.5) == .restart(after: .milliseconds(100)))
    }

    @Test func moreRestartsThanTheLimitWithinThePeriodGiveUpAndOlderOnesAreForgotten() {
        var restarts = WorkerRestarts(options: options)
        let second: UInt64 = 1_000_000_000
        for index in 0..<3 {
            #expect(restarts.workerExited(index % 2, status: 1, signal: 0, ranFor: .zero, now: UInt64(index) * second, jitterUnit: 0.5) != .giveUp)
        }
        #expect(restarts.workerExited(0, status: 1, signal: 0, ranFor: .zero, now: 3 * second, jitterUnit: 0.5) == .giveUp)
        // A minute after the first, it falls out of the count.
        var later = WorkerRestarts(options: options)
        for index in 0..<3 { _ = later.workerExited(0, status: 1, signal: 0, ranFor: .zero, now: UInt64(index) * second, jitterUnit: 0.5) }
        #expect(later.workerExited(0, status: 1, signal: 0, ranFor: .zero, now: 61 * second, jitterUnit: 0.5) != .giveUp)
    }
}

/// The chat daemon run with `--workers 2`: a parent process and two
/// workers sharing the port, end to end.
@Suite struct WorkersTests {
    /// The process IDs the parent logged for its workers so far
    /// ("Worker 1 started: pid 1234."), in order.
    static func workerPIDs(_ parent: FixtureProcess) -> [Int32] {
        parent.errors.lines.compactMap { line in
            guard let range = line.range(of: "started: pid ") else { return nil }
            return Int32(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// Whether `pid` has exited: no such process, or a zombie nobody has
    /// reaped yet (a worker whose parent was killed is reparented).
    static func isGone(_ pid: Int32) -> Bool {
        if kill(pid, 0) == -1, errno == ESRCH { return true }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").contains { $0.hasPrefix("State:") && $0.contains("Z") }
    }

    /// Whether `pid` is gone within 2 s: a process closes its descriptors
    /// (the end of a pipe it shared) a moment before it becomes a zombie.
    static func becomesGone(_ pid: Int32) async -> Bool {
        for _ in 0..<400 {
            if isGone(pid) { return true }
            try? await Task.sleep(for: .milliseconds(5))   // polling /proc: the kernel tells no one of a zombie we are not the parent of
        }
        return isGone(pid)
    }

    @Test func twoWorkersServeOneKilledIsReplacedAndATerminateStopsAllAndTheParentExits0() async throws {
        let port = try TestSocket.freePort()
        let parent = try FixtureProcess(
            executable: "ComposeChat",
            arguments: ["--workers", "2"],
            environment: ["CHAT_PORT": "\(port)"]
        )
        // Each worker prints it when it listens (they share standard output).
        let bothListen = await parent.output.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0 == "listening on 127.0.0.1:\(port)" }.count == 2
        }
        #expect(bothListen, "\(parent.transcript)")
        // The parent logs each start on standard error, a pipe of its own
        // that may trail the workers' standard output.
        let bothStarted = await parent.errors.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0.contains("started: pid ") }.count == 2
        }
        #expect(bothStarted, "\(parent.transcript)")
        let first = Self.workerPIDs(parent)
        #expect(first.count == 2, "\(parent.transcript)")
        #expect(!first.contains(parent.pid))

        let daemon = ChatDaemon(process: parent, port: port)
        var clients: [LineClient] = []
        for name in ["ada", "bob", "cy", "dee"] { clients.append(try await daemon.connect(as: name)) }

        // SIGKILL: no goodbye, no cleanup; the parent starts another.
        kill(first[0], SIGKILL)
        let replaced = await parent.errors.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0.contains("started: pid ") }.count == 3
        }
        #expect(replaced, "\(parent.transcript)")
        let third = await parent.output.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0 == "listening on 127.0.0.1:\(port)" }.count == 3
        }
        #expect(third, "\(parent.transcript)")
        #expect(parent.errors.text.contains("was killed by signal 9"), "\(parent.transcript)")
        let pids = Self.workerPIDs(parent)
        // Still served, by whichever worker the kernel picks.
        let late = try await daemon.connect(as: "eve")
        clients.append(late)

        parent.signal(SIGTERM)
        #expect(await parent.waitForExit() == 0, "\(parent.transcript)")
        for pid in pids { #expect(Self.isGone(pid), "worker \(pid) is left") }
        // Clients of the surviving workers were told goodbye. The client's
        // reader may trail the parent's exit: wait for the end it reads.
        #expect(await late.waitForClose())
        #expect(late.lines.last == ChatDaemonTests.goodbye, "\(late.lines)")
        #expect(parent.errors.text.contains("exiting with status 0"), "\(parent.transcript)")
    }

    @Test func underSystemdTheParentSpeaksForItsWorkersWhichNotifyItNotSystemd() async throws {
        let systemd = try NotifyListener(abstract: true)
        systemd.startReading()
        let port = try TestSocket.freePort()
        let parent = try FixtureProcess(
            executable: "ComposeChat",
            arguments: ["--workers", "2"],
            environment: ["CHAT_PORT": "\(port)", "NOTIFY_SOCKET": systemd.address]
        )
        #expect(await systemd.datagrams.waitForLine(timeout: FixtureProcess.failureTimeout) { $0 == "READY=1" }, "\(systemd.messages)\n\(parent.transcript)")
        #expect(await systemd.datagrams.waitForLine(timeout: FixtureProcess.failureTimeout) { $0 == "STATUS=2 of 2 workers ready" }, "\(systemd.messages)")
        let bothListen = await parent.output.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0.hasPrefix("listening on") }.count == 2
        }
        #expect(bothListen, "\(parent.transcript)")
        parent.signal(SIGTERM)
        #expect(await parent.waitForExit() == 0, "\(parent.transcript)")
        #expect(await systemd.datagrams.waitForLine(timeout: FixtureProcess.failureTimeout) { $0 == "STOPPING=1" }, "\(systemd.messages)")
        // Only the parent spoke: one READY=1, none from a worker.
        #expect(systemd.messages.filter { $0 == "READY=1" }.count == 1, "\(systemd.messages)")
    }

    @Test func workersOfAParentKilledWithSIGKILLStopToo() async throws {
        let port = try TestSocket.freePort()
        let parent = try FixtureProcess(executable: "ComposeChat", arguments: ["--workers", "2"], environment: ["CHAT_PORT": "\(port)"])
        let bothListen = await parent.output.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
            lines.filter { $0.hasPrefix("listening on") }.count == 2
        }
        #expect(bothListen, "\(parent.transcript)")
        let pids = Self.workerPIDs(parent)
        parent.signal(SIGKILL)
        // Standard output ends once the workers, which share it, are gone.
        #expect(await parent.waitForExit(killedOnPurpose: true) == -SIGKILL)
        #expect(parent.output.hasEnded, "\(parent.transcript)")
        for pid in pids { #expect(await Self.becomesGone(pid), "worker \(pid) outlived its parent") }
    }

    /// Every worker would stop on an unknown option: the parent does not
    /// start them again and again, it stops and exits 64 too.
    @Test func anUnknownOptionStopsTheParentWith64NotARestartLoop() async throws {
        let port = try TestSocket.freePort()
        let parent = try FixtureProcess(executable: "ComposeChat", arguments: ["--workers", "2", "--bogus", "1"], environment: ["CHAT_PORT": "\(port)"])
        #expect(await parent.waitForExit() == 64, "\(parent.transcript)")
        #expect(parent.errors.text.contains("its command line is wrong (usage error)"), "\(parent.transcript)")
        #expect(Self.workerPIDs(parent).count == 2, "\(parent.transcript)")
        for pid in Self.workerPIDs(parent) { #expect(Self.isGone(pid), "worker \(pid) is left") }
    }

    @Test func helpListsTheRuntimesSettings() async throws {
        let help = try FixtureProcess(executable: "ComposeChat", arguments: ["--help"])
        #expect(await help.waitForExit() == 0, "\(help.transcript)")
        #expect(help.output.lines.contains { $0.hasPrefix("  --workers <int>") && $0.contains("CHAT_WORKERS") && $0.hasSuffix("default: 0") }, "\(help.transcript)")
        #expect(help.output.lines.contains { $0.hasPrefix("  --reuse-port <bool>") && $0.contains("CHAT_REUSE_PORT") && $0.hasSuffix("default: false") }, "\(help.transcript)")
    }

    /// As systemd's `chatd@1`, `chatd@2` would run it.
    @Test func twoCopiesWithTheReusePortSettingShareOnePortWhichAThirdWithoutItCannotTake() async throws {
        let port = try TestSocket.freePort()
        let first = try FixtureProcess(executable: "ComposeChat", arguments: ["--reuse-port"], environment: ["CHAT_PORT": "\(port)"])
        try await first.waitFor("listening on 127.0.0.1:\(port)")
        let second = try FixtureProcess(executable: "ComposeChat", environment: ["CHAT_PORT": "\(port)", "CHAT_REUSE_PORT": "true"])
        try await second.waitFor("listening on 127.0.0.1:\(port)")
        let third = try FixtureProcess(executable: "ComposeChat", environment: ["CHAT_PORT": "\(port)"])
        #expect(await third.waitForExit() == 1, "\(third.transcript)")
        #expect(third.output.lines.contains { $0.hasPrefix("cannot listen: ") && $0.contains("EADDRINUSE") }, "\(third.transcript)")
        for copy in [first, second] {
            copy.signal(SIGTERM)
            #expect(await copy.waitForExit() == 0, "\(copy.transcript)")
        }
    }
}
