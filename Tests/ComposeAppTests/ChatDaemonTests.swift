import Foundation
import Testing

/// The chat daemon (Examples/Chat) end to end: the `ComposeChat` executable
/// as a real process on a free port, and real TCP clients.
@Suite struct ChatDaemonTests {
    static let greeting = "Welcome to Compose chat!"
    static let namePrompt = "What is your name?"
    static let goodbye = "The server is shutting down. Goodbye!"

    static func hello(_ name: String) -> String {
        "Hello, \(name)! Type /join ROOM, /who or /quit."
    }

    static func inRoom(_ room: String) -> String {
        "You are in \(room). Type to talk, /leave to go back."
    }

    @Test func clientsInTheSameRoomHearEachOtherAndWhoListsThem() async throws {
        let chat = try await ChatDaemon.start()
        let ada = try await chat.connect(as: "ada")
        let bob = try await chat.connect(as: "bob")
        #expect(ada.lines.prefix(3) == [Self.greeting, Self.namePrompt, Self.hello("ada")])

        ada.send("/join lab")
        try await ada.waitFor(Self.inRoom("lab"))
        bob.send("/join lab")
        try await bob.waitFor(Self.inRoom("lab"))
        try await ada.waitFor("* bob joined lab")

        ada.send("hello bob")
        try await bob.waitFor("<ada> hello bob")
        bob.send("/who")
        try await bob.waitFor("Here: ada, bob")
        // Ada's line was handled before her /who: had it been echoed to
        // her, it would have come before the answer.
        ada.send("/who")
        try await ada.waitFor("Here: ada, bob")
        #expect(!ada.lines.contains("<ada> hello bob"))

        #expect(await chat.stop() == 0, "\(chat.process.transcript)")
    }

    @Test func anIdleClientIsToldAndDisconnectedWhileAnActiveOneStays() async throws {
        let chat = try await ChatDaemon.start(environment: ["CHAT_IDLE_SECONDS": "0.3"])
        let active = try await chat.connect(as: "ada")
        let silent = try chat.connect()
        try await silent.waitFor(Self.namePrompt)

        // The active client talks whenever it is answered (`/who` always
        // is), so it is never silent for long, until the daemon has dropped
        // the silent one.
        let started = ContinuousClock.now
        var expected = active.lines.count
        while !silent.isClosed {
            guard ContinuousClock.now - started < FixtureProcess.failureTimeout else {
                Issue.record("The silent client was never disconnected; it received:\n\(silent.input.text)")
                break
            }
            active.send("/who")
            expected += 1
            try await active.waitForLines(count: expected)
        }
        #expect(await silent.waitForClose())
        #expect(silent.lines == [Self.greeting, Self.namePrompt, "You have been idle for too long. Bye!"])

        #expect(!active.isClosed)
        active.send("/who")
        try await active.waitForLines(count: expected + 1)
        #expect(active.lines.last == "Here: ada")
        #expect(!active.lines.contains("You have been idle for too long. Bye!"))

        #expect(await chat.stop() == 0, "\(chat.process.transcript)")
    }

    @Test func onTerminateEveryClientIsToldGoodbyeBeforeItsSocketClosesAndTheDaemonExits0() async throws {
        let chat = try await ChatDaemon.start()
        let ada = try await chat.connect(as: "ada")
        ada.send("/join lab")
        try await ada.waitFor(Self.inRoom("lab"))
        let bob = try await chat.connect(as: "bob")
        let unnamed = try chat.connect()
        try await unnamed.waitFor(Self.namePrompt)

        chat.process.signal(SIGTERM)
        for client in [ada, bob, unnamed] {
            #expect(await client.waitForClose())
            #expect(client.lines.last == Self.goodbye, "\(client.input.text)")
        }
        #expect(await chat.process.waitForExit() == 0, "\(chat.process.transcript)")
    }

    @Test func aHangupReloadsTheMessageOfTheDayAndDoesNotStopTheDaemon() async throws {
        let motd = FileManager.default.temporaryDirectory.appendingPathComponent("compose-chat-motd-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: motd) }
        try "Welcome, early birds.\n".write(to: motd, atomically: true, encoding: .utf8)
        let chat = try await ChatDaemon.start(environment: ["CHAT_MOTD": motd.path])
        let early = try chat.connect()
        try await early.waitFor(Self.namePrompt)
        #expect(early.lines.first == "Welcome, early birds.")

        try "Maintenance at noon.\n".write(to: motd, atomically: true, encoding: .utf8)
        chat.process.signal(SIGHUP)
        try await chat.process.waitFor("message of the day reloaded")
        let late = try chat.connect()
        try await late.waitFor(Self.namePrompt)
        #expect(late.lines.first == "Maintenance at noon.")

        // Still running, and still serving the client from before.
        #expect(chat.process.isRunning)
        #expect(!early.isClosed)
        early.send("ada")
        try await early.waitFor(Self.hello("ada"))
        #expect(!chat.process.output.lines.contains { $0.contains("shutting down") })

        #expect(await chat.stop() == 0, "\(chat.process.transcript)")
    }

    @Test func aPortAlreadyInUseMakesTheDaemonExitWithStatus1NamingEADDRINUSE() async throws {
        let holder = try PortHolder()
        let chat = try FixtureProcess(executable: "ComposeChat", environment: ["CHAT_PORT": "\(holder.port)"])
        let status = await chat.waitForExit()
        #expect(status == 1, "\(chat.transcript)")
        let complaint = chat.output.lines.first { $0.hasPrefix("cannot listen: ") }
        #expect(complaint?.contains("EADDRINUSE") == true, "\(chat.transcript)")
        #expect(complaint?.contains("127.0.0.1:\(holder.port)") == true, "\(chat.transcript)")
        #expect(!chat.output.lines.contains { $0.hasPrefix("listening on") }, "\(chat.transcript)")
    }
}

/// A running chat daemon and the port it listens on.
struct ChatDaemon: ServedDaemon {
    let process: FixtureProcess
    let port: UInt16

    /// Starts `ComposeChat` on a free port (CHAT_PORT=0) and reads the port
    /// from its "listening on 127.0.0.1:PORT" line.
    static func start(environment: [String: String] = [:]) async throws -> ChatDaemon {
        let process = try FixtureProcess(
            executable: "ComposeChat",
            environment: ["CHAT_PORT": "0"].merging(environment) { _, new in new }
        )
        let line = try await process.waitForLine(startingWith: "listening on 127.0.0.1:")
        let port = try #require(line.split(separator: ":").last.flatMap { UInt16($0) }, "\(line)")
        return ChatDaemon(process: process, port: port)
    }

    /// A new client, not named yet.
    func connect() throws -> LineClient {
        try LineClient(port: port)
    }

    /// A new client that gave its name and is in the lobby.
    func connect(as name: String) async throws -> LineClient {
        let client = try connect()
        try await client.waitFor(ChatDaemonTests.namePrompt)
        client.send(name)
        try await client.waitFor(ChatDaemonTests.hello(name))
        return client
    }

    /// A new client is greeted, named and answered.
    func expectService(sourceLocation: SourceLocation) async throws {
        let name = "guest\(UInt32.random(in: 0...UInt32.max))"
        let client = try await connect(as: name)
        client.send("/who")
        // Clients that just left may still be listed.
        let answered = await client.input.waitForLine(timeout: FixtureProcess.failureTimeout) {
            $0.hasPrefix("Here: ") && $0.contains(name)
        }
        #expect(answered, "no answer to /who:\n\(client.input.text)", sourceLocation: sourceLocation)
        client.disconnect()
    }

}

/// A socket listening on a free port of 127.0.0.1, closed when released.
private final class PortHolder {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LineClient.Failure.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let error = errno
            close(fd)
            throw LineClient.Failure.socket(error)
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(fd)
    }
}
