import ComposeFraming
import ComposeTesting
import Testing

/// Frames over a TestApp's simulated network, child processes and standard
/// input: a RESP2 key-value server, limits, back-pressure.
@MainActor
@Suite struct FramingAppTests {
    func keyValueServer() throws -> (TestApp, KeyValueServer) {
        let app = TestApp(root: KeyValueServer())
        return (app, try #require(app.root(as: KeyValueServer.self)))
    }

    @Test func pipelinedCommandsAreAnsweredInOrderEvenSplitAnywhere() throws {
        let (app, server) = try keyValueServer()
        let peer = try app.connect(port: 6379)
        // A value with CR LF and NUL in it, which a line reader would cut.
        let value = "a\r\nb\0c"
        let requests = resp("SET", "k", value) + resp("GET", "k") + resp("PING") + resp("GET", "missing")
        // In pieces of 5 bytes: every header and bulk string cut somewhere.
        for start in stride(from: 0, to: requests.count, by: 5) {
            peer.write(Array(requests[start..<min(requests.count, start + 5)]))
        }
        #expect(peer.receivedText == "+OK\r\n$6\r\n\(value)\r\n+PONG\r\n$-1\r\n")
        #expect(server.log.commands == 4)
        // Nothing left over: an idle connection holds no input buffer.
        #expect(server.log.lastConnection?.bufferedInputBytes == 0)
        peer.write(Array(resp("PING").prefix(7)))
        #expect(server.log.lastConnection?.bufferedInputBytes == 7)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aFrameOverTheMaximumClosesThatConnectionOnly() throws {
        let (app, server) = try keyValueServer()
        let rude = try app.connect(port: 6379)
        let polite = try app.connect(port: 6379)
        // A PING, then a bulk string announcing 2 MB (the maximum is 1 MiB):
        // refused as soon as its header arrives.
        rude.write(resp("PING") + Array("*2\r\n$3\r\nSET\r\n$2000000\r\n".utf8))
        #expect(rude.receivedText == "+PONG\r\n")
        #expect(rude.isClosedByApp)
        let error = try #require(server.log.entries.first { $0.hasPrefix("error frameTooLarge") })
        #expect(error.contains("TCPConnection.frames"))
        #expect(error.contains("a frame announcing 2000000 bytes"))
        #expect(error.contains("1048576"))
        #expect(error.contains("127.0.0.1:\(rude.port)"))
        #expect(server.log.entries.contains { $0.hasPrefix("closed failed: TCPConnection.frames failed: EMSGSIZE") })
        polite.write(resp("PING"))
        #expect(polite.receivedText == "+PONG\r\n")
        #expect(!polite.isClosedByApp)
    }

    @Test func malformedInputIsAnsweredThenTheConnectionCloses() throws {
        let (app, server) = try keyValueServer()
        let peer = try app.connect(port: 6379)
        peer.write(resp("PING") + Array("hello\r\n".utf8) + resp("PING"))
        // The first PING answered, the error's observer wrote its reply,
        // nothing after the bad frame was decoded.
        #expect(peer.receivedText == "+PONG\r\n-ERR Protocol error: expected *<number>\\r\\n\r\n")
        #expect(peer.isClosedByApp)
        #expect(server.log.commands == 1)
        #expect(server.log.entries.first?.contains("error malformedFrame: TCPConnection.frames failed: EPROTO (RESPRequestDecoder rejected the input: expected *<number>") == true)
    }

    @Test func aLineTooLongClosesAfterTheLinesBeforeIt() throws {
        let app = TestApp(root: LineEcho())
        let server = try #require(app.root(as: LineEcho.self))
        let peer = try app.connect(port: 7000)
        peer.write("ok\r\n12345678\n1234")
        peer.write("56789")
        #expect(peer.receivedText == "ok\n12345678\n")
        #expect(peer.isClosedByApp)
        #expect(server.log.entries == [
            "frameTooLarge: TCPConnection.frames failed: EMSGSIZE (a frame of at least 9 bytes, more than the maximum frame length of 8 bytes: the stream was closed) for 127.0.0.1:\(peer.port)",
        ])
    }

    @Test func aPeerThatPipelinesWithoutReadingPausesDecodingUntilItReads() throws {
        let (app, server) = try keyValueServer()
        let peer = try app.connect(port: 6379)
        let value = String(repeating: "v", count: 64 * 1024)
        peer.write(resp("SET", "big", value))
        #expect(peer.receivedText == "+OK\r\n")
        peer.stopReading(window: 64 * 1024)
        // 100 GETs of 64 KiB in one read, then 100 more: 12.8 MiB of
        // replies, past the 4 MiB the send queue may hold.
        let hundredGets = Array(repeating: resp("GET", "big"), count: 100).flatMap { $0 }
        peer.write(hundredGets)
        peer.write(hundredGets)
        let connection = try #require(server.log.lastConnection)
        // Decoding stopped once the queue was full (1 MiB): about 17
        // replies handed over, the rest of the first read still encoded in
        // the connection's buffer, the second read not read.
        #expect(server.log.commands > 1 && server.log.commands < 25)
        #expect(connection.isFull)
        #expect(connection.isOpen)
        #expect(connection.bufferedInputBytes > 0 && connection.bufferedInputBytes < hundredGets.count)
        #expect(connection.queuedBytes < 2 << 20)

        peer.resumeReading()
        #expect(server.log.commands == 201)
        #expect(connection.bufferedInputBytes == 0)
        let replies = peer.received.count - "+OK\r\n".utf8.count
        #expect(replies == 200 * ("$65536\r\n".utf8.count + 64 * 1024 + 2))
        #expect(!peer.isClosedByApp)
        #expect(server.log.entries.isEmpty)
    }

    @Test func pausingReadingHoldsTheFramesUntilItResumes() throws {
        let app = TestApp(root: LineEcho())
        let server = try #require(app.root(as: LineEcho.self))
        let peer = try app.connect(port: 7000)
        peer.write("pause\none\ntwo\n")
        #expect(peer.receivedText == "pause\n")
        let connection = try #require(server.log.lastConnection)
        #expect(connection.bufferedInputBytes == 8)
        connection.resumeReading()
        app.advance(by: .zero)
        #expect(peer.receivedText == "pause\none\ntwo\n")
        #expect(connection.bufferedInputBytes == 0)
    }

    @Test func aFrameWhoseObserverRemovesTheConnectionEndsTheDelivery() throws {
        // QUIT among pipelined commands: the connection closes, its
        // component goes; nothing after QUIT is decoded or answered.
        let (app, server) = try keyValueServer()
        let peer = try app.connect(port: 6379)
        peer.write(resp("PING") + resp("QUIT") + resp("PING") + resp("PING"))
        #expect(peer.receivedText == "+PONG\r\n+OK\r\n")
        #expect(peer.isClosedByApp)
        #expect(server.log.commands == 2)
        #expect(server.clients.count == 0)
        #expect(server.log.lastConnection?.bufferedInputBytes == 0)
    }

    @Test func aSecondDecoderIsReportedAndTheFirstStays() throws {
        let app = TestApp(root: LineEcho(decodesTwice: true))
        let peer = try app.connect(port: 7000)
        peer.write("hi\n")
        #expect(peer.receivedText == "hi\n")
        #expect(app.diagnostics.map(\.code) == [.framesAlreadyDecoded])
    }

    @Test func aChildsOutputFramesArriveBeforeItsExit() throws {
        let app = TestApp(root: FrameProducer()) { app in
            app.scriptProcess("producer") { run in
                let encoder = LengthPrefixedEncoder(lengthField: .twoBytes)
                var buffer = ByteBuffer()
                for text in ["one", "two\nlines", ""] { try? encoder.encode(ByteBuffer(string: text), into: &buffer) }
                run.writeOutput(Array(buffer.readableBytesView))
                run.exit(status: 0)
            }
        }
        let producer = try #require(app.root(as: FrameProducer.self))
        #expect(producer.log.entries == ["one", "two\nlines", "", "exit"])
    }

    @Test func aChildsFramesRelayedToAConnectionPauseItsOutputWhileTheConnectionIsFull() throws {
        var script: ScriptedProcess?
        let app = TestApp(root: FrameRelay()) { app in
            script = app.scriptProcess("producer") { run in
                // 40 records of 64 KiB: 2.5 MiB, more than the peer takes.
                for index in 0..<40 { run.writeOutput(Array(repeating: UInt8(index), count: 64 * 1024)) }
                run.exit(status: 0)
            }
        }
        let relay = try #require(app.root(as: FrameRelay.self))
        let peer = try app.connect(port: 7100)
        peer.stopReading(window: 0)
        try relay.start()
        // The connection's queue reached 1 MiB: the frames wait, and the
        // child's output is not read (its exit waits behind it).
        let run = try #require(script?.runs.first)
        #expect(run.isOutputPaused)
        #expect(relay.log.commands < 40)
        #expect(relay.log.entries.isEmpty)
        peer.resumeReading()
        #expect(relay.log.commands == 40)
        #expect(peer.received.count == 40 * 64 * 1024)
        #expect(relay.log.entries == ["exit"])
    }

    @Test func standardInputFramesThenTheEnd() throws {
        let app = TestApp(root: InputRecords())
        let input = try #require(app.root(as: InputRecords.self))
        app.standardInput.write([1, 2, 0, 3])
        app.standardInput.write([0, 4])
        app.standardInput.close()
        #expect(input.log.entries == ["1,2", "3", "4", "end"])
    }
}

/// Echoes lines of at most 8 bytes; `pause` pauses reading.
struct LineEcho: Component {
    let listener = TCPServer(port: 7000)
    let clients = InstanceComponent<LineEchoClient>()
    let log = Log()
    var decodesTwice = false
    var observers: Void {
        listener += { connection in clients.add { LineEchoClient(connection: connection, log: log, decodesTwice: decodesTwice) } }
        clients.forward(\.connection.errors) += { _, error in log.entries.append("\(error.kind): \(error)") }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

struct LineEchoClient: Component {
    let connection: TCPConnection
    let log: Log
    let decodesTwice: Bool
    var observers: Void {
        log.lastConnection = connection
        connection.frames(using: LineDecoder(maximumLength: 8)) += { line in
            connection.write(line)
            connection.write("\n")
            if String(buffer: line) == "pause" { connection.pauseReading() }
        }
        if decodesTwice {
            connection.frames(using: LineDecoder()) += { _ in log.entries.append("second decoder") }
        }
    }
}

/// Runs `producer` and records its length-prefixed output frames.
struct FrameProducer: Component {
    let producer = ChildProcess("producer", startsWithComponent: true)
    let log = Log()
    var observers: Void {
        producer.frames(using: LengthPrefixedDecoder(lengthField: .twoBytes)) += { frame in
            log.entries.append(String(buffer: frame))
        }
        producer.didExit += { _ in log.entries.append("exit") }
    }
}

/// Relays `producer`'s 64 KiB records to the first client, paced by it.
struct FrameRelay: Component {
    let listener = TCPServer(port: 7100)
    let clients = InstanceComponent<PassiveClient>()
    let producer = ChildProcess("producer")
    let log = Log()
    var observers: Void {
        listener += { connection in
            clients.add { PassiveClient(connection: connection) }
            log.lastConnection = connection
        }
        producer.didExit += { _ in log.entries.append("exit") }
    }

    /// Starts the producer, its frames relayed to the client.
    func start() throws {
        let connection = log.lastConnection!
        producer.frames(using: FixedLengthDecoder(length: 64 * 1024), pausedWhileFull: connection) += { record in
            log.commands += 1
            connection.write(record)
        }
        try producer.start()
    }
}

struct PassiveClient: Component {
    let connection: TCPConnection
    var observers: Void { None }
}

/// NUL-separated records on standard input.
struct InputRecords: Component {
    let input = StandardInput()
    let log = Log()
    var observers: Void {
        input.frames(using: DelimiterDecoder(delimiter: [0], maximumLength: 16)) += { record in
            log.entries.append(record.readableBytesView.map(String.init).joined(separator: ","))
        }
        input.didReachEnd += { log.entries.append("end") }
    }
}
