import ComposeTesting
import Testing
import ComposeFraming

struct ShoutSession: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.frames(using: TextLineDecoder(maximumLength: 4096)) += { line in
            connection.write(line.uppercased(), using: LineEncoder(terminator: .crlf))
        }
    }
}

// Sources/ComposeFraming/ComposeFraming.docc/ComposeFraming.md: the shout
// session above, and the RESP2 decoder below, served by a listener.

struct RESPDecoder: FrameDecoder {
    var maximumFrameLength: Int { 1 << 20 }

    mutating func decode(buffer: inout ByteBuffer) throws -> [ByteBuffer]? {
        var index = buffer.readerIndex
        guard let count = try number(after: "*", in: buffer, at: &index) else { return nil }
        var arguments: [ByteBuffer] = []
        for _ in 0..<count {
            guard let length = try number(after: "$", in: buffer, at: &index),
                  buffer.writerIndex - index >= length + 2,
                  let argument = buffer.getSlice(at: index, length: length) else { return nil }
            arguments.append(argument)
            index += length + 2
        }
        buffer.moveReaderIndex(to: index)
        return arguments
    }

    /// `<marker><digits>\r\n` at `index`, or `nil` until its end arrives.
    func number(after marker: Character, in buffer: ByteBuffer, at index: inout Int) throws -> Int? {
        guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n"), from: index) else { return nil }
        guard buffer.getInteger(at: index, as: UInt8.self) == marker.asciiValue,
              let text = buffer.getString(at: index + 1, length: newline - index - 2),
              let value = Int(text), value >= 0 else {
            throw FramingError.malformedFrame(reason: "expected '\(marker)' and a length")
        }
        index = newline + 1
        return value
    }
}

struct EchoAndRESPServer: Component {
    let echo = TCPServer(port: 9200)
    let resp = TCPServer(port: 9201)
    let echoSessions = InstanceComponent<ShoutSession>()
    let respSessions = InstanceComponent<RESPSession>()
    var observers: Void {
        echo += { connection in echoSessions.add { ShoutSession(connection: connection) } }
        resp += { connection in respSessions.add { RESPSession(connection: connection) } }
    }
}

/// Answers each command with its arguments' count and the first one.
struct RESPSession: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.frames(using: RESPDecoder()) += { command in
            connection.write("+\(command.count) \(command.first.map { String(buffer: $0) } ?? "")\r\n")
        }
        // The article's answer to a protocol error.
        connection.errors += { error in
            if case .malformedFrame(let reason)? = error.framingError {
                connection.write("-ERR Protocol error: \(reason)\r\n")
            }
        }
    }
}

@MainActor
@Test func theShoutSessionAndTheRESPDecoderOfTheArticle() throws {
    let app = TestApp(root: EchoAndRESPServer())
    let shout = try app.connect(port: 9200)
    shout.write("hello\nframes\r")
    shout.write("\n")
    #expect(shout.receivedText == "HELLO\r\nFRAMES\r\n")

    let client = try app.connect(port: 9201)
    client.write("*2\r\n$3\r\nGET\r\n$5\r\nk\r\ney\r\n*1\r\n$4\r\nPI")
    client.write("NG\r\n")
    #expect(client.receivedText == "+2 GET\r\n+1 PING\r\n")
    client.write("?oops\r\n")
    #expect(client.receivedText == "+2 GET\r\n+1 PING\r\n-ERR Protocol error: expected '*' and a length\r\n")
    #expect(client.isClosedByApp)
}
