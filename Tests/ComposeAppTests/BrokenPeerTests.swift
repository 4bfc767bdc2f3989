@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// Peers that go away must never end the daemon (issue #11): without the
/// runtime ignoring SIGPIPE, the first write to a socket whose peer closed
/// killed the process. These run the real daemons as processes, on real
/// sockets: the subject is the kernel's behaviour.
@Suite struct BrokenPeerTests {
    static let cycles = 1_000

    /// Echo writes only what it is sent; the chat greets every client at
    /// once, so the close races its greeting.
    @Test(arguments: [ServedDaemonKind.echo, .chat])
    func aDaemonSurvivesAThousandConnectThenCloseCyclesAndStillServes(_ kind: ServedDaemonKind) async throws {
        let daemon = try await kind.start()
        let port = daemon.port
        let failures = await RudeClient.onThread { RudeClient.connectThenClose(port: port, count: Self.cycles) }
        #expect(failures == 0)
        #expect(daemon.process.isRunning, "\(daemon.process.transcript)")
        try await daemon.expectService()
        #expect(await daemon.stop() == 0, "\(daemon.process.transcript)")
    }

    @Test func theEchoDaemonSurvivesClientsThatCloseOrResetInTheMiddleOfALargeWrite() async throws {
        let echo = try await EchoDaemon.start()
        let port = echo.port
        for round in 0..<4 {
            let sent = try await RudeClient.onThread {
                Result { try RudeClient.sendWithoutReadingThenClose(port: port, total: 8 << 20) }
            }.get()
            // More than the sockets' buffers: the server was queueing.
            #expect(sent > 1 << 20, "round \(round)")
            #expect(echo.process.isRunning, "\(echo.process.transcript)")
            try await echo.expectService()
        }
        let fd = try RudeClient.connect(port: port)
        RudeClient.send(fd, bytes: Array(repeating: 0x62, count: 256 * 1024))
        RudeClient.reset(fd)
        try await echo.expectService()
        #expect(await echo.stop() == 0, "\(echo.process.transcript)")
    }

    @Test func theChatDaemonSurvivesAClientThatSendsAHundredLinesAndClosesWithoutReading() async throws {
        let chat = try await ChatDaemon.start()
        let port = chat.port
        let lines = ["ada", "/join lab"] + (0..<98).map { "line \($0)" }
        for _ in 0..<10 {
            try await RudeClient.onThread { Result { try RudeClient.sendLinesThenClose(port: port, lines: lines) } }.get()
        }
        let fd = try RudeClient.connect(port: port)
        RudeClient.send(fd, bytes: Array((["bob", "/join lab"] + lines).map { $0 + "\n" }.joined().utf8))
        RudeClient.reset(fd)
        #expect(chat.process.isRunning, "\(chat.process.transcript)")
        try await chat.expectService()
        #expect(await chat.stop() == 0, "\(chat.process.transcript)")
    }

    @Test func sighupNeverEndsAnAppThatDoesNotObserveIt() async throws {
        let echo = try await EchoDaemon.start()
        for _ in 0..<3 { echo.process.signal(SIGHUP) }
        try await echo.expectService()
        #expect(echo.process.isRunning)
        #expect(await echo.stop() == 0, "\(echo.process.transcript)")
    }

    @Test func anAppWritingPastTheFileSizeLimitKeepsRunningAndExits0() async throws {
        // `ulimit -f 1`: stdout is a file that may not grow past 512 bytes, and
        // the app prints about 20 KiB. SIGXFSZ's default action would kill it.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("compose-fsize-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let fixture = try FixtureProcess.executableURL("ComposeFixture").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f 1 && exec env --default-signal \"$0\" > \"$1\"", fixture, file.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["COMPOSE_FIXTURE": "chatty"]) { _, new in new }
        process.standardError = FileHandle.nullDevice
        let (reason, status) = try await Self.run(process)
        #expect(reason == .exit, "killed by signal \(status)")
        #expect(status == 0)
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        #expect(size == 512) // dash counts `ulimit -f` in 512-byte blocks
    }

    @Test func anAppWhoseStandardOutputReaderWentAwayKeepsRunningAndExits0() async throws {
        // `app | head -1`: the reading end of stdout is closed at once, and
        // the app prints 2,000 more lines.
        let process = Process()
        // Default signal actions in the child (see FixtureProcess).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal", try FixtureProcess.executableURL("ComposeFixture").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["COMPOSE_FIXTURE": "chatty"]) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let (reason, status) = try await Self.run(process) {
            try output.fileHandleForReading.close()
            try output.fileHandleForWriting.close()
        }
        #expect(reason == .exit, "killed by signal \(status)")
        #expect(status == 0)
    }

    /// Runs `process`, then `started`, and waits for the exit.
    static func run(_ process: Process, started: () throws -> Void = {}) async throws -> (Process.TerminationReason, Int32) {
        let exited = AsyncStream<(Process.TerminationReason, Int32)> { continuation in
            process.terminationHandler = { continuation.yield(($0.terminationReason, $0.terminationStatus)); continuation.finish() }
        }
        try process.run()
        try started()
        var iterator = exited.makeAsyncIterator()
        return try #require(await iterator.next())
    }
}

/// A connection whose peer reset it reports the error once on `errors`,
/// then closes once with that reason; the server goes on.
@MainActor
@Suite(.serialized, .liveLoop) struct BrokenPeerConnectionTests {
    @Test func aWriteToAPeerThatResetIsOneErrorAndOneClose() throws {
        try withEchoServer { echo, _ in
            let fd = try RudeClient.connect(port: echo.listener.port)
            #expect(LoopDriver.run(until: { echo.clients.count == 1 }))
            let connection = try #require(echo.clients.ids.first.flatMap { echo.clients[$0] }?.connection)
            var errors: [LoopError] = []
            connection.errors += { errors.append($0) }
            RudeClient.reset(fd)
            // Write until the reset is seen: by the read side (ECONNRESET)
            // or by a write (EPIPE / ECONNRESET). Either way: once. The
            // server removes the connection's component when it closes.
            #expect(LoopDriver.run(until: {
                connection.write("are you there?\n")
                return echo.clients.count == 0
            }))
            LoopDriver.settle()
            #expect(errors.count == 1)
            #expect(errors.first?.isPeerGone == true, "\(errors)")
            #expect(!connection.isOpen)
            #expect(connection.write("still there?\n") == .closed)

            let client = ClientProbe(port: echo.listener.port)
            #expect(LoopDriver.run(until: { client.connection != nil }))
            client.connection?.write(Array("ping".utf8))
            #expect(LoopDriver.run(until: { client.received.count == 4 }))
            client.connection?.close()
        }
    }
}

/// A daemon under test as a process, serving on `port`.
protocol ServedDaemon: Sendable {
    var process: FixtureProcess { get }
    var port: UInt16 { get }
    /// A new client is served (fails the test otherwise).
    func expectService(sourceLocation: SourceLocation) async throws
}

extension ServedDaemon {
    func expectService(at location: SourceLocation = #_sourceLocation) async throws {
        try await expectService(sourceLocation: location)
    }

    /// Sends SIGTERM and returns the exit status.
    func stop() async -> Int32 {
        process.signal(SIGTERM)
        return await process.waitForExit()
    }
}

/// The daemons the rude clients are tried on.
enum ServedDaemonKind: CustomStringConvertible, Sendable {
    case echo, chat

    var description: String { self == .echo ? "echo" : "chat" }

    func start() async throws -> any ServedDaemon {
        switch self {
        case .echo: try await EchoDaemon.start()
        case .chat: try await ChatDaemon.start()
        }
    }
}

/// The fixture's `echo` scenario running as a process.
private struct EchoDaemon: ServedDaemon {
    let process: FixtureProcess
    let port: UInt16

    static func start() async throws -> EchoDaemon {
        let process = try FixtureProcess("echo")
        let line = try await process.waitForLine(startingWith: "echo listening on ")
        let port = try #require(line.split(separator: " ").last.flatMap { UInt16($0) }, "\(line)")
        return EchoDaemon(process: process, port: port)
    }

    /// A new client gets its line echoed.
    func expectService(sourceLocation: SourceLocation) async throws {
        let client = try LineClient(port: port)
        client.send("ping")
        try await client.waitFor("ping", sourceLocation: sourceLocation)
        client.disconnect()
    }
}
