import ComposeFraming
import ComposeTesting
import Testing
@testable import ComposeKeyValue

/// The key-value example (Examples/KeyValue) as a whole app on a test
/// context: simulated clients on port 6380 speaking RESP2. The replies
/// expected are redis-server 7.0's to the same bytes. KeyValueDaemonTests
/// runs the real executable against the real redis-cli.
@MainActor
@Suite struct KeyValueAppTests {
    /// `arguments` as a RESP array of bulk strings.
    static func command(_ arguments: [UInt8]...) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments { bytes += Array("$\(argument.count)\r\n".utf8) + argument + [13, 10] }
        return bytes
    }

    static func command(_ arguments: String...) -> [UInt8] {
        command(arguments.map { Array($0.utf8) })
    }

    @Test func everyCommandIsAnsweredAsRedisAnswersIt() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        let exchanges: [([String], String)] = [
            (["PING"], "+PONG\r\n"),
            (["ping", "hi"], "$2\r\nhi\r\n"),
            (["PING", "a", "b"], "-ERR wrong number of arguments for 'ping' command\r\n"),
            (["ECHO", "hello"], "$5\r\nhello\r\n"),
            (["ECHO"], "-ERR wrong number of arguments for 'echo' command\r\n"),
            (["GET", "k"], "$-1\r\n"),
            (["SET", "k", "v"], "+OK\r\n"),
            (["GeT", "k"], "$1\r\nv\r\n"),
            (["GET"], "-ERR wrong number of arguments for 'get' command\r\n"),
            (["SET", "k"], "-ERR wrong number of arguments for 'set' command\r\n"),
            (["SET", "k", "v", "EX", "10"], "-ERR syntax error\r\n"),
            (["INCR", "k"], "-ERR value is not an integer or out of range\r\n"),
            (["INCR", "n"], ":1\r\n"),
            (["INCRBY", "n", "41"], ":42\r\n"),
            (["INCRBY", "n", "9223372036854775807"], "-ERR increment or decrement would overflow\r\n"),
            (["INCRBY", "n", "-50"], ":-8\r\n"),
            (["INCRBY", "n", "+1"], "-ERR value is not an integer or out of range\r\n"),
            (["INCRBY", "n", "99999999999999999999"], "-ERR value is not an integer or out of range\r\n"),
            (["INCRBY", "n"], "-ERR wrong number of arguments for 'incrby' command\r\n"),
            (["SET", "z", "007"], "+OK\r\n"),
            (["INCR", "z"], "-ERR value is not an integer or out of range\r\n"),
            (["SET", "z", "-0"], "+OK\r\n"),
            (["INCR", "z"], "-ERR value is not an integer or out of range\r\n"),
            (["GET", "n"], "$2\r\n-8\r\n"),
            (["EXISTS", "k", "k", "nothing"], ":2\r\n"),
            (["DEL", "k", "n", "nothing"], ":2\r\n"),
            (["DEL"], "-ERR wrong number of arguments for 'del' command\r\n"),
            (["MSET", "a", "1", "b", "2"], "+OK\r\n"),
            (["MSET", "a", "1", "b"], "-ERR wrong number of arguments for 'mset' command\r\n"),
            (["MGET", "a", "nothing", "b"], "*3\r\n$1\r\n1\r\n$-1\r\n$1\r\n2\r\n"),
            (["DBSIZE"], ":3\r\n"),
            (["DBSIZE", "x"], "-ERR wrong number of arguments for 'dbsize' command\r\n"),
            (["COMMAND", "DOCS"], "*0\r\n"),
            (["CONFIG", "GET", "save"], "*2\r\n$4\r\nsave\r\n$0\r\n\r\n"),
            (["config", "get", "appendonly"], "*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n"),
            (["CONFIG", "GET", "maxmemory"], "*0\r\n"),
            (["CONFIG", "GET"], "-ERR wrong number of arguments for 'config|get' command\r\n"),
            (["CONFIG", "SET", "save", ""], "-ERR unknown subcommand 'SET'. Try CONFIG HELP.\r\n"),
            (["CONFIG"], "-ERR wrong number of arguments for 'config' command\r\n"),
            (["FOO", "bar", "baz"], "-ERR unknown command 'FOO', with args beginning with: 'bar' 'baz' \r\n"),
            (["foo"], "-ERR unknown command 'foo', with args beginning with: \r\n"),
            (["FLUSHALL", "x"], "-ERR syntax error\r\n"),
            (["FLUSHALL", "ASYNC"], "+OK\r\n"),
            (["DBSIZE"], ":0\r\n"),
            (["SET", "a", "1"], "+OK\r\n"),
            (["FLUSHALL"], "+OK\r\n"),
            (["DBSIZE"], ":0\r\n"),
        ]
        for (arguments, reply) in exchanges {
            client.send(KeyValueAppTests.command(arguments.map { Array($0.utf8) }))
            #expect(client.replies() == reply, "\(arguments)")
        }
        #expect(!client.peer.isClosedByApp)
        #expect(app.diagnostics.isEmpty)
    }

    static func command(_ arguments: [[UInt8]]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments { bytes += Array("$\(argument.count)\r\n".utf8) + argument + [13, 10] }
        return bytes
    }

    @Test func anUnknownCommandShowsAtMost128BytesOfItsArgumentsAndNoLineBreak() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        client.send(Self.command("NOPE", "a\r\nb", String(repeating: "x", count: 200), "never shown"))
        // redis: each argument as '%.*s' with 128 minus what is shown so far.
        #expect(client.replies() == "-ERR unknown command 'NOPE', with args beginning with: 'a  b' '\(String(repeating: "x", count: 121))' \r\n")
    }

    @Test func inlineCommandsAreSplitAtSpacesAndBlankLinesIgnored() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        client.send(Array("SET greeting hello\r\n\r\n  GET \t greeting  \nPING\r\n".utf8))
        #expect(client.replies() == "+OK\r\n$5\r\nhello\r\n+PONG\r\n")
    }

    @Test func binaryKeysAndValuesComeBackUnchanged() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        let key: [UInt8] = [0, 13, 10, 36, 42, 255]
        let value = Array(0...255) + Array("\r\n$3\r\n*1\r\n".utf8) + [0, 0]
        client.send(Self.command(Array("SET".utf8), key, value))
        client.send(Self.command(Array("GET".utf8), key))
        client.send(Self.command(Array("MGET".utf8), key, key))
        let bulk = Array("$\(value.count)\r\n".utf8) + value + [13, 10]
        #expect(client.replyBytes() == Array("+OK\r\n".utf8) + bulk + Array("*2\r\n".utf8) + bulk + bulk)
    }

    /// Keys of every length around the hash's 8-byte words and the 16 bytes
    /// compared as words (`ByteKey`), with bytes that differ only in their last
    /// byte or in one past the 16th: each comes back with its own value.
    @Test func keysOfEveryLengthFindTheirOwnValue() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        let keys = (0 ... 40).flatMap { length -> [[UInt8]] in
            let key = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
            return length == 0 ? [key] : [key, Array(key.dropLast()) + [key[length - 1] ^ 1], key.enumerated().map { $0 == 17 ? $1 ^ 0x80 : $1 }]
        }
        client.send(keys.enumerated().flatMap { index, key in Self.command(Array("SET".utf8), key, Array("v\(index)".utf8)) })
        #expect(client.replies() == String(repeating: "+OK\r\n", count: keys.count))
        let unique = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: max)
        client.send(keys.flatMap { Self.command(Array("get".utf8), $0) })
        #expect(client.replies() == keys.map { "$\("v\(unique[$0]!)".utf8.count)\r\nv\(unique[$0]!)\r\n" }.joined())
        #expect(app.root(as: KeyValueApp.self)?.store.entries.count == unique.count)
    }

    @Test func storedKeysAndValuesAreCopiesThatDoNotHoldTheReadBuffer() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        // One chunk of 100 KB: the connection's read buffer is at least that.
        client.send(Self.command("SET", "key", "value") + Self.command("MSET", "k2", "v2", "k3", "v3") + Self.command("ECHO", String(repeating: "x", count: 100_000)))
        let entries = try #require(app.root(as: KeyValueApp.self)?.store.entries)
        #expect(entries.count == 3)
        for (key, value) in entries {
            #expect(key.bytes.storageCapacity < 1024 && value.capacity < 1024, "\(String(buffer: key.bytes))")
        }
    }

    /// Commands of every kind, binary values and inline ones; replayable
    /// (it starts with FLUSHALL).
    static let batch: [UInt8] = command("FLUSHALL") + command("SET", "k", "v1") + command(Array("SET".utf8), Array("b".utf8), [0, 13, 10, 42, 36])
        + Array("GET k\r\n".utf8) + command("GET", "b") + command("INCR", "n") + command("INCRBY", "n", "10") + Array("\r\n".utf8)
        + command("MSET", "x", "1", "y", "2") + command("MGET", "x", "y", "z") + Array("*0\r\n".utf8) + command("DEL", "x", "k")
        + command("EXISTS", "y", "b") + command("DBSIZE") + command("ECHO", "") + command("PING")

    static let batchReplies = "+OK\r\n+OK\r\n+OK\r\n$2\r\nv1\r\n$5\r\n\0\r\n*$\r\n:1\r\n:11\r\n+OK\r\n*3\r\n$1\r\n1\r\n$1\r\n2\r\n$-1\r\n:2\r\n:2\r\n:3\r\n$0\r\n\r\n+PONG\r\n"

    @Test func aPipelineInOneChunkIsAnsweredInOrder() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        client.send(Self.batch)
        #expect(client.replies() == Self.batchReplies)

        var many: [UInt8] = []
        for index in 0..<1000 { many += Self.command("SET", "key\(index)", "\(index)") + Self.command("GET", "key\(index)") }
        client.send(many + Self.command("DBSIZE"))
        let expected = (0..<1000).map { "+OK\r\n$\("\($0)".count)\r\n\($0)\r\n" }.joined() + ":1003\r\n"
        #expect(client.replies() == expected)
    }

    @Test func aPipelineSplitAtAnyByteIsAnsweredAsInOneChunk() throws {
        let app = TestApp(KeyValueApp.self)
        for split in 1..<Self.batch.count {
            let client = try RESPClient(app)
            client.send(Array(Self.batch[..<split]))
            client.send(Array(Self.batch[split...]))
            #expect(client.replies() == Self.batchReplies, "split at \(split)")
            client.peer.close()
        }
        let client = try RESPClient(app)
        for byte in Self.batch { client.send([byte]) }
        #expect(client.replies() == Self.batchReplies, "one byte at a time")
    }

    @Test func quitIsAnsweredThenTheConnectionClosesAndWhatFollowsIsNotRun() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        client.send(Self.command("QUIT") + Self.command("SET", "after", "quit"))
        #expect(client.replies() == "+OK\r\n")
        #expect(client.peer.isClosedByApp)
        let other = try RESPClient(app)
        other.send(Self.command("DBSIZE"))
        #expect(other.replies() == ":0\r\n")
    }

    @Test(arguments: [
        ("*x\r\n", "invalid multibulk length"),
        ("*3000000000\r\n", "invalid multibulk length"),
        ("*1048577\r\n", "invalid multibulk length"),
        ("*01\r\n", "invalid multibulk length"),
        ("*1\r\n+PING\r\n", "expected '$', got '+'"),
        ("*1\r\n\r\n", "expected '$', got ' '"),
        ("*1\r\n$x\r\n", "invalid bulk length"),
        ("*1\r\n$-5\r\n", "invalid bulk length"),
        ("*1\r\n$04\r\nPING\r\n", "invalid bulk length"),
        ("*1\r\n$67108865\r\n", "invalid bulk length"),
        ("*123456789012345678901234567890123", "too big mbulk count string"),
        ("*1\r\n$123456789012345678901234567890123", "too big bulk count string"),
    ])
    func aProtocolErrorIsAnsweredThenTheConnectionClosesAndTheOthersGoOn(input: String, error: String) throws {
        let app = TestApp(KeyValueApp.self)
        let other = try RESPClient(app)
        let client = try RESPClient(app)
        client.send(Self.command("PING") + Array(input.utf8) + Self.command("PING"))
        #expect(client.replies() == "+PONG\r\n-ERR Protocol error: \(error)\r\n")
        #expect(client.peer.isClosedByApp)
        other.send(Self.command("PING"))
        #expect(other.replies() == "+PONG\r\n")
    }

    @Test func anInlineCommandOver64KiBIsRefused() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        client.send(Array("ECHO \(String(repeating: "x", count: 65_530))\r\n".utf8))
        #expect(client.replies() == "$65530\r\n\(String(repeating: "x", count: 65_530))\r\n")
        client.send(Array(repeating: UInt8(ascii: "x"), count: 65 * 1024))
        #expect(client.replies() == "-ERR Protocol error: too big inline request\r\n")
        #expect(client.peer.isClosedByApp)
    }

    @Test func theLongestValueIsTheSettingAndOneByteMoreIsRefused() throws {
        let app = TestApp(KeyValueApp.self, config: ["maxBulk": 16])
        let client = try RESPClient(app)
        client.send(Self.command("SET", "k", String(repeating: "v", count: 16)))
        #expect(client.replies() == "+OK\r\n")
        client.send(Self.command("SET", "k", String(repeating: "v", count: 17)))
        #expect(client.replies() == "-ERR Protocol error: invalid bulk length\r\n")
        #expect(client.peer.isClosedByApp)
    }

    @Test func aCommandPastTheFrameLimitFailsAsSoonAsItsLengthsSaySo() throws {
        var decoder = RESPDecoder()
        decoder.maximumFrameLength = 100
        var buffer = ByteBuffer(string: "*2\r\n$3\r\nSET\r\n$90\r\n")
        #expect(throws: FrameTooLarge.self) { try decoder.decode(buffer: &buffer) }
        var fits = RESPDecoder()
        fits.maximumFrameLength = 100
        var small = ByteBuffer(string: "*2\r\n$3\r\nSET\r\n$80\r\n")
        #expect(try fits.decode(buffer: &small) == nil)
    }

    @Test func aClientThatPipelinesWithoutReadingIsPacedByItsSendQueue() throws {
        let app = TestApp(KeyValueApp.self)
        let client = try RESPClient(app)
        let value = String(repeating: "v", count: 64 * 1024)
        client.send(Self.command("SET", "big", value))
        #expect(client.replies() == "+OK\r\n")
        client.peer.stopReading(window: 64 * 1024)
        // 200 replies of 64 KiB (12.5 MiB): the decoding stops once the
        // send queue is full, and the rest waits unread.
        client.send((0..<200).flatMap { _ in Self.command("GET", "big") })
        #expect(!client.peer.isClosedByApp)
        client.peer.resumeReading()
        #expect(client.replies() == String(repeating: "$65536\r\n\(value)\r\n", count: 200))
    }

    // MARK: Settings

    @Test func thePortComesFromTheConfigurationAndAnOutOfRangeOneKeeps6380() throws {
        _ = try RESPClient(TestApp(KeyValueApp.self))
        let moved = TestApp(KeyValueApp.self, config: ["port": 6400])
        #expect(throws: LoopError.self) { try moved.connect(port: 6380) }
        let client = try RESPClient(moved, port: 6400)
        client.send(Self.command("PING"))
        #expect(client.replies() == "+PONG\r\n")
        _ = try RESPClient(TestApp(KeyValueApp.self, config: ["port": 70_000]))
    }
}

/// A simulated client of the key-value app: sends bytes, reads what came
/// back since the last read.
@MainActor
final class RESPClient {
    let peer: TestPeer
    private var read = 0

    init(_ app: TestApp, port: UInt16 = 6380) throws {
        peer = try app.connect(port: port)
    }

    func send(_ bytes: [UInt8]) {
        peer.write(bytes)
    }

    func replyBytes() -> [UInt8] {
        let received = peer.received
        defer { read = received.count }
        return Array(received[read...])
    }

    func replies() -> String {
        String(decoding: replyBytes(), as: UTF8.self)
    }
}
