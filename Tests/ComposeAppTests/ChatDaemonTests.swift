import Foundation
import Testing

/// The chat daemon (Examples/Chat) end to end: the `ComposeChat` executable
/// as a real process on a free port, and real TCP clients. Only what needs
/// the real process: a signal from the kernel with every goodbye written
/// before its socket closes, and a port another process holds. What the
/// chat does (rooms, commands, idle clients, reloads) is tested on a
/// TestApp: ChatAppTests.
@Suite struct ChatDaemonTests {
    static let namePrompt = "What is your name?"
    static let goodbye = "The server is shutting down. Goodbye!"

    static func hello(_ name: String) -> String {
        "Hello, \(name)! Type /join ROOM, /who or /quit."
    }

    static func inRoom(_ room: String) -> String {
        "You are in \(room). Type to talk, /leave to go back."
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

    @Test func onTerminateAHundredMembersEachGetEveryLineWrittenThenTheGoodbyeThenEndOfInput() async throws {
        let chat = try await ChatDaemon.start(environment: ["CHAT_ROOM_CAPACITY": "128"])
        var members: [LineClient] = []
        for index in 0..<100 {
            let member = try await chat.connect(as: "m\(index)")
            member.send("/join lab")
            try await member.waitFor(Self.inRoom("lab"))
            members.append(member)
        }
        let speaker = members[0]
        for index in 0..<50 { speaker.send("line \(index)") }
        // The daemon handles one client's lines in order: once /who is
        // answered, all 50 lines were written to every other member.
        speaker.send("/who")
        #expect(await speaker.input.waitForLine(timeout: FixtureProcess.failureTimeout) { $0.hasPrefix("Here: ") })

        let signalled = ContinuousClock.now
        chat.process.signal(SIGTERM)
        let said = (0..<50).map { "<m0> line \($0)" }
        for member in members {
            #expect(await member.waitForClose())
            #expect(member.lines.last == Self.goodbye, "\(member.input.text)")
            if member !== speaker {
                #expect(member.lines.filter { $0.hasPrefix("<m0> ") } == said, "\(member.input.text)")
            }
        }
        #expect(await chat.process.waitForExit() == 0, "\(chat.process.transcript)")
        // The drain ended when the last session closed, not at its timeout.
        #expect(ContinuousClock.now - signalled < .seconds(5))
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

    @Test func helpListsEverySettingWithItsFlagVariableAndDefaultAndExits0() async throws {
        let help = try FixtureProcess(executable: "ComposeChat", arguments: ["--help"])
        #expect(await help.waitForExit() == 0, "\(help.transcript)")
        let lines = help.output.lines
        #expect(lines.first == "Usage: ComposeChat [--setting value ...]", "\(help.transcript)")
        for (flag, variable, value) in [
            ("--port <int>", "CHAT_PORT", "default: 7070"),
            ("--motd <string>", "CHAT_MOTD", "no default"),
            ("--idle-seconds <number>", "CHAT_IDLE_SECONDS", "default: 300.0"),
            ("--room-capacity <int>", "CHAT_ROOM_CAPACITY", "default: 32"),
            ("--max-line <int>", "CHAT_MAX_LINE", "default: 4096"),
            ("--send-queue <int>", "CHAT_SEND_QUEUE", "default: 262144"),
            ("--tls-cert <string>", "CHAT_TLS_CERT", "no default"),
            ("--tls-key <string>", "CHAT_TLS_KEY", "no default"),
            ("--config <file>", "CHAT_CONFIG", "no default"),
        ] {
            #expect(lines.contains { $0.hasPrefix("  \(flag)") && $0.contains(variable) && $0.hasSuffix(value) }, "\(flag)\n\(help.transcript)")
        }
        #expect(!lines.contains { $0.hasPrefix("listening on") })
    }

    @Test func aHangupRereadsTheConfigurationFileAndTheMessageOfTheDayItNames() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compose-chat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = { (name: String) in folder.appendingPathComponent(name).path }
        try "Good morning.".write(toFile: file("morning.txt"), atomically: true, encoding: .utf8)
        try "Good evening.".write(toFile: file("evening.txt"), atomically: true, encoding: .utf8)
        try #"{"motd": "\#(file("morning.txt"))"}"#.write(toFile: file("chat.json"), atomically: true, encoding: .utf8)

        let chat = try await ChatDaemon.start(environment: ["CHAT_CONFIG": file("chat.json")])
        let early = try chat.connect()
        try await early.waitFor("Good morning.")

        try #"{"motd": "\#(file("evening.txt"))"}"#.write(toFile: file("chat.json"), atomically: true, encoding: .utf8)
        chat.process.signal(SIGHUP)
        try await chat.process.waitFor("message of the day reloaded")
        let late = try chat.connect()
        try await late.waitFor("Good evening.")

        chat.process.signal(SIGTERM)
        #expect(await chat.process.waitForExit() == 0, "\(chat.process.transcript)")
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
