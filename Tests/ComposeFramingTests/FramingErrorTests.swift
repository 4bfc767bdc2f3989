import ComposeFraming
import ComposeTesting
import Testing

/// Lines of at most 16 bytes, each saying how to fail: `bad` throws an
/// error of the decoder's own type, `said` a `FramingError` in the
/// protocol's words, `huge` announces a frame over the maximum, `stuck`
/// returns a frame without taking a byte; any other line is a frame.
struct ScriptedFailures: FrameDecoder {
    struct BadInput: Error, CustomStringConvertible {
        var description: String { "a line that says bad" }
    }

    var lines = LineDecoder(maximumLength: 16)
    var maximumFrameLength: Int { 16 }

    mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        guard let end = buffer.firstIndex(of: UInt8(ascii: "\n"), from: buffer.readerIndex) else {
            return try lines.decode(buffer: &buffer)
        }
        switch buffer.getString(at: buffer.readerIndex, length: end - buffer.readerIndex) {
        case "bad": throw BadInput()
        case "said": throw FramingError.malformedFrame(reason: "invalid bulk length")
        case "huge": throw FrameTooLarge(length: 1_000, limit: 16, isAnnounced: true)
        case "stuck": return ByteBuffer(string: "stuck")
        default: return try lines.decode(buffer: &buffer)
        }
    }
}

/// Echoes each frame; an errors observer records the typed framing error
/// and answers it, as a protocol answers a malformed request, before the
/// connection closes.
struct AnsweringServer: Component {
    let listener = TCPServer(port: 7400)
    let clients = InstanceComponent<AnsweringSession>()
    let log = Log()
    let failures = Failures()
    var observers: Void {
        listener += { connection in clients.add { AnsweringSession(connection: connection, log: log, failures: failures) } }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

@MainActor
final class Failures {
    var errors: [LoopError] = []
    var framing: [FramingError?] { errors.map(\.framingError) }
}

struct AnsweringSession: Component {
    let connection: TCPConnection
    let log: Log
    let failures: Failures
    var observers: Void {
        connection.frames(using: ScriptedFailures()) += { line in
            connection.write(line)
            connection.write("\n")
        }
        connection.errors += { error in
            failures.errors.append(error)
            log.entries.append("open: \(connection.isOpen)")
            switch error.framingError {
            case .malformedFrame(let reason)?: connection.write("-ERR Protocol error: \(reason)\r\n")
            case .frameTooLarge(let tooLarge)?: connection.write("-ERR over \(tooLarge.limit)\r\n")
            case .decoderMadeNoProgress?: connection.write("-ERR server bug\r\n")
            case nil: break
            }
        }
    }
}

/// A child's length-prefixed output and standard input's records, whose
/// errors carry the framing error too.
struct FailingStreams: Component {
    let producer = ChildProcess("producer", startsWithComponent: true)
    let input = StandardInput()
    let failures = Failures()
    var observers: Void {
        producer.frames(using: LengthPrefixedDecoder(lengthField: .twoBytes, maximumLength: 8)) += { _ in }
        producer.errors += { failures.errors.append($0) }
        input.frames(using: DelimiterDecoder(delimiter: [0], maximumLength: 4)) += { _ in }
        input.errors += { failures.errors.append($0) }
    }
}

/// A decoder's failure reaches the stream's `errors` as a typed
/// `FramingError` (`LoopError.framingError`), while the connection is
/// still open: an observer answers it, and the answer arrives before the
/// close, after the replies to the frames before it.
@MainActor
@Suite struct FramingErrorTests {
    func server() throws -> (TestApp, AnsweringServer) {
        let app = TestApp(root: AnsweringServer())
        return (app, try #require(app.root(as: AnsweringServer.self)))
    }

    @Test(arguments: [
        ("bad", FramingError.malformedFrame(reason: "a line that says bad"), "-ERR Protocol error: a line that says bad\r\n"),
        ("said", .malformedFrame(reason: "invalid bulk length"), "-ERR Protocol error: invalid bulk length\r\n"),
        ("huge", .frameTooLarge(FrameTooLarge(length: 1_000, limit: 16, isAnnounced: true)), "-ERR over 16\r\n"),
        ("stuck", .decoderMadeNoProgress, "-ERR server bug\r\n"),
    ])
    func aDecodersErrorIsTypedAndAnsweredBeforeTheConnectionCloses(line: String, expected: FramingError, answer: String) throws {
        let (app, server) = try server()
        let peer = try app.connect(port: 7400)
        peer.write("one\ntwo\n\(line)\nnever\n")
        #expect(server.failures.framing == [expected])
        #expect(server.log.entries == ["open: true"])
        #expect(peer.receivedText == "one\ntwo\n" + answer)
        #expect(peer.isClosedByApp)
        // Only that connection.
        let other = try app.connect(port: 7400)
        other.write("still\n")
        #expect(other.receivedText == "still\n")
    }

    @Test func aLineOverTheMaximumIsAFrameTooLargeOfWhatWasSeen() throws {
        let (app, server) = try server()
        let peer = try app.connect(port: 7400)
        peer.write("ok\n" + String(repeating: "x", count: 40))
        #expect(server.failures.framing == [.frameTooLarge(FrameTooLarge(length: 40, limit: 16, isAnnounced: false))])
        let error = try #require(server.failures.errors.first)
        #expect(error.kind == .frameTooLarge)
        #expect(peer.receivedText == "ok\n-ERR over 16\r\n")
        #expect(peer.isClosedByApp)
    }

    @Test func theLoopErrorStillSaysItAllAndOnlyFramingErrorsHaveAFramingError() throws {
        let (app, server) = try server()
        let peer = try app.connect(port: 7400)
        peer.write("bad\n")
        let error = try #require(server.failures.errors.first)
        #expect(error.kind == .malformedFrame)
        #expect("\(error)" == "TCPConnection.frames failed: EPROTO (ScriptedFailures rejected the input: a line that says bad; the stream was closed) for 127.0.0.1:\(peer.port)")
        #expect(LoopError("uv_read", errno: 104).framingError == nil)
    }

    @Test func aChildsOutputAndStandardInputReportTheirFramingErrorsTyped() throws {
        let app = TestApp(root: FailingStreams()) { app in
            app.scriptProcess("producer") { run in
                run.writeOutput([0, 9] + Array(repeating: 1, count: 9))
                run.exit(status: 0)
            }
        }
        let streams = try #require(app.root(as: FailingStreams.self))
        app.standardInput.write([1, 2, 3, 4, 5, 6])
        #expect(streams.failures.framing.contains(.frameTooLarge(FrameTooLarge(length: 9, limit: 8, isAnnounced: true))))
        #expect(streams.failures.framing.contains(.frameTooLarge(FrameTooLarge(length: 6, limit: 4, isAnnounced: false))))
        #expect(streams.failures.errors.count == 2)
    }

    @Test func eachCaseSaysWhatWasWrongAndWhatWouldBeRight() {
        #expect(FramingError.frameTooLarge(FrameTooLarge(length: 70_000, limit: 65_536, isAnnounced: true)).description
            == "a frame announcing 70000 bytes, more than the maximum frame length of 65536 bytes: frames must be at most 65536 bytes (the decoder's maximum), or the decoder given a larger one")
        #expect(FramingError.malformedFrame(reason: "invalid multibulk length").description == "malformed input: invalid multibulk length")
        #expect(FramingError.decoderMadeNoProgress.description
            == "the decoder returned a frame without taking any byte from the buffer: decode(buffer:) must move the reader index past each frame it returns")
    }
}
