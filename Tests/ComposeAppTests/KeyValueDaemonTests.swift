import Foundation
import Testing

/// The key-value example (Examples/KeyValue) end to end: the
/// `ComposeKeyValue` executable on a free port, and the real `redis-cli`
/// (Debian's redis-tools, which `make test` installs). What the server
/// answers is tested on a TestApp: KeyValueAppTests.
@Suite(.enabled(if: RedisCli.path != nil, "redis-cli is not installed (apt-get install redis-tools; `make test` installs it): the end-to-end tests of the key-value example need it"))
struct KeyValueDaemonTests {
    @Test func aValueSetWithRedisCliIsReadBackAndTheServerExits0OnTerminate() async throws {
        let server = try await KeyValueServer.start()
        #expect(try await server.cli(["SET", "greeting", "hello world"]) == "OK\n")
        #expect(try await server.cli(["GET", "greeting"]) == "hello world\n")
        #expect(try await server.cli(["INCRBY", "counter", "41"]) == "41\n")
        #expect(try await server.cli(["GET", "nothing"]) == "\n")
        server.process.signal(SIGTERM)
        #expect(await server.process.waitForExit() == 0, "\(server.process.transcript)")
    }

    @Test func helpListsTheSettingsWithTheirVariablesAndDefaults() async throws {
        let help = try FixtureProcess(executable: "ComposeKeyValue", arguments: ["--help"])
        #expect(await help.waitForExit() == 0, "\(help.transcript)")
        for (flag, variable, value) in [
            ("--host <string>", "KEYVALUE_HOST", "default: 127.0.0.1"),
            ("--port <int>", "KEYVALUE_PORT", "default: 6380"),
            ("--max-bulk <int>", "KEYVALUE_MAX_BULK", "default: 67108864"),
            // The example's StartupConfiguration(busyPolling: .microseconds(50)).
            ("--busy-poll-microseconds <int>", "KEYVALUE_BUSY_POLL_MICROSECONDS", "default: 50"),
        ] {
            #expect(help.output.lines.contains { $0.hasPrefix("  \(flag)") && $0.contains(variable) && $0.hasSuffix(value) }, "\(flag)\n\(help.transcript)")
        }
    }

    /// It busy-polls 50 µs after each read: idle, it sleeps all the same.
    @Test func idleAfterARequestItSleepsRatherThanPolling() async throws {
        let server = try await KeyValueServer.start()
        #expect(try await server.cli(["PING"]) == "PONG\n")
        let before = try #require(server.cpuTicks(), "\(server.process.transcript)")
        // Real time: another process's CPU over a second of idleness is
        // what is measured; no event marks idleness to await instead.
        try await Task.sleep(for: .seconds(1))
        let after = try #require(server.cpuTicks(), "\(server.process.transcript)")
        // A loop that kept polling would use most of the second (100
        // ticks a second); a sleeping one next to none.
        #expect(after - before < 30, "\(after - before) ticks of CPU in a second idle")
    }

    @Test func aTwentyMegabyteValueGoesInAndComesBackWithTheDefaultSettings() async throws {
        let server = try await KeyValueServer.start()
        var value = [UInt8](repeating: 0, count: 20_000_000)
        for index in value.indices { value[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        let file = try RedisCli.temporaryFile(Data(value))
        defer { try? FileManager.default.removeItem(at: file) }
        // -x: the last argument is read from standard input.
        #expect(try await server.cli(["-x", "SET", "big"], input: file) == "OK\n")
        let reply = try await server.cliData(["GET", "big"])
        // Compared as one Bool: a failed `==` on two 20 MB values would
        // have the test library compute their difference, for hours.
        let sameBytes = reply == Data(value + [10])
        #expect(reply.count == value.count + 1, "\(server.process.transcript)")
        #expect(sameBytes)
    }

    @Test(arguments: [
        // redis-server 7.0's bytes for the same requests (checked with a
        // raw socket against it, 2026).
        ("*abc\r\n", "-ERR Protocol error: invalid multibulk length\r\n"),
        ("PING\r\n*1\r\n$600000000\r\n", "+PONG\r\n-ERR Protocol error: invalid bulk length\r\n"),
        ("*1\r\nx\r\n", "-ERR Protocol error: expected '$', got 'x'\r\n"),
    ])
    func aMalformedRequestIsAnsweredAsRedisAnswersItThenTheConnectionCloses(request: String, reply: String) async throws {
        let server = try await KeyValueServer.start()
        let (received, closed) = try server.exchange(request)
        #expect(received == reply, "\(server.process.transcript)")
        #expect(closed)
        #expect(try await server.cli(["PING"]) == "PONG\n")
    }

    @Test func aPipelinedBatchThroughRedisCliPipeIsAnsweredInFull() async throws {
        let server = try await KeyValueServer.start()
        var batch = ""
        for index in 0..<10_000 {
            let key = "key:\(index)", value = "value \(index)\r\n\0"
            batch += "*3\r\n$3\r\nSET\r\n$\(key.utf8.count)\r\n\(key)\r\n$\(value.utf8.count)\r\n\(value)\r\n"
        }
        let file = try RedisCli.temporaryFile(Data(batch.utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let summary = try await server.cli(["--pipe"], input: file)
        #expect(summary.contains("errors: 0, replies: 10000"), "\(summary)")
        #expect(try await server.cli(["DBSIZE"]) == "10000\n")
        #expect(try await server.cliData(["GET", "key:9999"]) == Data("value 9999\r\n\0\n".utf8))
    }
}

/// A running `ComposeKeyValue` and the port it listens on.
struct KeyValueServer {
    let process: FixtureProcess
    let port: UInt16

    /// Starts it on a free port (KEYVALUE_PORT=0) and reads the port from
    /// its "listening on 127.0.0.1:PORT" line.
    static func start() async throws -> KeyValueServer {
        let process = try FixtureProcess(executable: "ComposeKeyValue", environment: ["KEYVALUE_PORT": "0"])
        let line = try await process.waitForLine(startingWith: "listening on 127.0.0.1:")
        let port = try #require(line.split(separator: ":").last.flatMap { UInt16($0) }, "\(line)")
        return KeyValueServer(process: process, port: port)
    }

    /// Sends `request` on a connection of its own, and reads what the
    /// server answers until it closes the connection (`closed`) or 10
    /// seconds pass.
    func exchange(_ request: String) throws -> (reply: String, closed: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let bytes = Array(request.utf8)
        try #require(bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
            if count < 0 { return (String(decoding: received, as: UTF8.self), false) }
            received += buffer[..<count]
        }
    }

    /// The server's user + system CPU time so far, in clock ticks
    /// (`/proc/PID/stat`, fields 14 and 15; 100 a second on Linux).
    func cpuTicks() -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command's name, which may hold spaces: state is
        // field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// What `redis-cli -p PORT arguments...` prints, as text.
    func cli(_ arguments: [String], input: URL? = nil) async throws -> String {
        String(decoding: try await cliData(arguments, input: input), as: UTF8.self)
    }

    /// What `redis-cli -p PORT arguments...` prints (its raw output: not a
    /// terminal), with `input` as its standard input.
    func cliData(_ arguments: [String], input: URL? = nil) async throws -> Data {
        try await RedisCli.run(["-p", "\(port)"] + arguments, input: input)
    }
}

enum RedisCli {
    /// redis-cli on the PATH, if any.
    static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":")
        .map { "\($0)/redis-cli" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("compose-keyvalue-\(UUID().uuidString)")
        try data.write(to: url)
        return url
    }

    /// Runs redis-cli, its output to a file (a pipe's end could leak into
    /// a child another test spawns and hold back the end of file), killed
    /// past the fixtures' failure timeout.
    static func run(_ arguments: [String], input: URL?) async throws -> Data {
        let output = try temporaryFile(Data())
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path))
        process.arguments = arguments
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        let writer = try FileHandle(forWritingTo: output)
        process.standardOutput = writer
        process.standardError = writer
        // Not synchronisation: a watchdog on a real process, cancelled at its exit.
        let watchdog = Task {
            // Real time on purpose: redis-cli and the example are real
            // processes that no virtual clock drives; this bound only turns
            // a hang into a failure, and is cancelled when the process exits.
            try await Task.sleep(for: FixtureProcess.failureTimeout)  // real time: a watchdog on real processes, cancelled at exit
            process.terminate()
        }
        defer { watchdog.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        try writer.close()
        #expect(process.terminationReason == .exit, "redis-cli \(arguments) was killed")
        return try Data(contentsOf: output)
    }
}
