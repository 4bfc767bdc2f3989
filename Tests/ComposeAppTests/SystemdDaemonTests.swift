import Foundation
import Testing

/// Real daemons run as systemd runs a `Type=notify` service, a Unix
/// datagram socket of the test standing in for systemd's (no systemd
/// needed): the chat example (Examples/Chat) with no code of its own for
/// it, and the fixture app's `systemd` scenario.
@Suite struct SystemdDaemonTests {
    static let timeout = FixtureProcess.failureTimeout

    /// The monotonic clock now, in microseconds (what MONOTONIC_USEC is).
    static func monotonicMicroseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }

    @Test func theChatSaysReadyOnceItListensReloadingAroundAHangupAndStoppingAtSigterm() async throws {
        let systemd = try NotifyListener(abstract: true)
        systemd.startReading()
        let chat = try await ChatDaemon.start(environment: ["NOTIFY_SOCKET": systemd.address])
        #expect(await systemd.datagrams.waitForLine(timeout: Self.timeout) { $0 == "READY=1" }, "\(systemd.messages)\n\(chat.process.transcript)")
        // Ready means serving: a client is greeted.
        try await chat.expectService(sourceLocation: #_sourceLocation)

        let beforeHangup = Self.monotonicMicroseconds()
        chat.process.signal(SIGHUP)
        #expect(await systemd.datagrams.waitForLines(count: 3, timeout: Self.timeout), "\(systemd.messages)")
        let reloading = systemd.messages.dropFirst().first?.split(separator: "\n") ?? []
        #expect(reloading.first == "RELOADING=1", "\(systemd.messages)")
        let stamp = reloading.dropFirst().first.flatMap { $0.hasPrefix("MONOTONIC_USEC=") ? Int64($0.dropFirst(15)) : nil }
        #expect(stamp.map { (beforeHangup...Self.monotonicMicroseconds()).contains($0) } == true, "\(reloading)")

        chat.process.signal(SIGTERM)
        #expect(await chat.process.waitForExit() == 0, "\(chat.process.transcript)")
        #expect(await systemd.datagrams.waitForLines(count: 4, timeout: Self.timeout), "\(systemd.messages)")
        #expect(systemd.messages.count == 4)
        #expect(systemd.messages.first == "READY=1")
        #expect(Array(systemd.messages.dropFirst(2)) == ["READY=1", "STOPPING=1"])
    }

    @Test func aBlockedLoopStopsTheWatchdogPingsAndChildrenInheritNoNotifyVariables() async throws {
        let systemd = try NotifyListener(abstract: false)
        systemd.startReading()
        // 200 ms: a ping every 100 ms.
        let app = try FixtureProcess("systemd", environment: ["NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "\(getpid())"])
        try await app.waitFor("child NOTIFY_SOCKET=unset WATCHDOG_USEC=unset WATCHDOG_PID=unset")
        let pings = { @Sendable (lines: [String]) in lines.filter { $0 == "WATCHDOG=1" }.count }
        // The test's pid is not the app's: WATCHDOG_PID says the watchdog
        // is another process's.
        #expect(await systemd.datagrams.waitForLines(count: 2, timeout: Self.timeout))
        #expect(pings(systemd.messages) == 0, "\(systemd.messages)")
        app.signal(SIGTERM)
        #expect(await app.waitForExit() == 0, "\(app.transcript)")
        #expect(await systemd.datagrams.waitForLines(count: 3, timeout: Self.timeout))
        #expect(systemd.messages == ["STATUS=fixture running", "READY=1", "STOPPING=1"])

        let watched = try NotifyListener(abstract: false)
        watched.startReading()
        let daemon = try FixtureProcess("systemd", environment: ["NOTIFY_SOCKET": watched.address, "WATCHDOG_USEC": "200000"])
        #expect(await watched.datagrams.waitUntil(timeout: Self.timeout) { pings($0) >= 3 }, "\(watched.messages)")
        daemon.signal(SIGUSR1)
        try await daemon.waitFor("unblocked")
        let pingsAfterBlock = pings(watched.messages) + 3
        #expect(await watched.datagrams.waitUntil(timeout: Self.timeout) { pings($0) >= pingsAfterBlock }, "\(watched.messages)")
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit() == 0, "\(daemon.transcript)")

        let times = watched.arrivals.filter { $0.message == "WATCHDOG=1" }.map(\.at)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        try #require(gaps.count >= 5, "\(watched.messages)")
        // Pings 100 ms apart, but none for the second the loop was blocked
        // (systemd, with a 200 ms timeout, would have restarted the app).
        #expect(gaps.last.map { $0 >= .milliseconds(900) } == true, "\(gaps)")
        #expect(gaps[gaps.count / 2] < .milliseconds(300), "\(gaps)")
    }

    @Test func underTheJournalLogLinesCarryTheirSyslogPriorityAndElsewhereTheyArePlain() async throws {
        for journal in [true, false] {
            let chat = try FixtureProcess(executable: "ComposeChat", environment: ["CHAT_PORT": "0"], journalStream: journal)
            _ = try await chat.waitForLine(startingWith: "listening on 127.0.0.1:")
            chat.signal(SIGTERM)
            #expect(await chat.waitForExit() == 0, "\(chat.transcript)")
            await chat.errors.waitForEnd(timeout: Self.timeout)
            let lines = chat.errors.lines.filter { !$0.isEmpty }
            let shuttingDown = lines.first { $0.contains("Shutting down (SIGTERM).") }
            #expect(shuttingDown != nil, "\(chat.transcript)")
            if journal {
                #expect(shuttingDown?.hasPrefix("<6>") == true, "\(chat.transcript)")
                #expect(shuttingDown?.dropFirst(3).contains(" info compose: ") == true, "\(chat.transcript)")
                #expect(lines.allSatisfy { $0.wholeMatch(of: /<[2-7]>.*/) != nil }, "\(chat.transcript)")
            } else {
                #expect(lines.allSatisfy { !$0.hasPrefix("<") }, "\(chat.transcript)")
                #expect(shuttingDown?.contains(" info compose: ") == true, "\(chat.transcript)")
            }
        }
    }
}
