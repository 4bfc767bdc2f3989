@_spi(Testing) import ComposeApp
import Testing

/// The line limit on real sockets: a client that sends megabytes without a
/// newline is disconnected with `lineTooLong` once the server holds the
/// limit plus one read, and the loop goes on serving the others. (The
/// splitter itself: LineBufferTests; the same on a TestApp:
/// TestAppLineLimitTests.)
@MainActor
@Suite(.serialized, .liveLoop) struct LineLimitTests {
    /// Echoes each line back; journals errors and close reasons.
    struct LineEcho: Component {
        let connection: TCPConnection
        let log: LineLog
        var observers: Void {
            connection.lines += { line in connection.writeLine(line) }
            connection.errors += { error in log.lines.append("error: \(error.kind)") }
            connection.didClose += { reason in log.lines.append("closed: \(reason)") }
        }
    }

    struct LineEchoServer: Component {
        let listener = TCPServer(port: 0)
        let clients = InstanceComponent<LineEcho>()
        let log: LineLog
        var observers: Void {
            listener += { connection in
                clients.add { LineEcho(connection: connection, log: log) }
            }
            clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
        }
    }

    @Test func eightMebibytesWithoutANewlineCloseTheSenderWithLineTooLong() throws {
        let log = LineLog()
        let tree = ComponentTree(LineEchoServer(log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: LineEchoServer.self))

        let flooder = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { flooder.connection != nil && server.clients.count == 1 }))
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        for _ in 0..<128 { flooder.connection?.write(chunk) }   // 8 MiB, no newline
        #expect(LoopDriver.run(until: { server.clients.count == 0 }, timeout: .seconds(30)))
        #expect(log.lines.first == "error: lineTooLong")
        let closed = try #require(log.lines.last)
        #expect(closed.hasPrefix("closed: failed: TCPConnection.lines failed: EMSGSIZE"))
        #expect(closed.contains("65536 bytes"))
        // The flooder sees its connection end (closed, or reset with its
        // bytes unread).
        #expect(LoopDriver.run(until: { flooder.closed != nil }, timeout: .seconds(30)))

        // The loop serves the next client as before.
        let other = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { other.connection != nil }))
        other.connection?.write("still served\n")
        #expect(LoopDriver.run(until: { other.received == Array("still served\n".utf8) }))
    }

    @Test func aLineAtTheLimitArrivesWhole() throws {
        let log = LineLog()
        let tree = ComponentTree(LineEchoServer(log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: LineEchoServer.self))
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil }))
        // 65,536 bytes and `\r\n`: at the limit, sent in pieces the kernel
        // may cut anywhere.
        let line = [UInt8](repeating: UInt8(ascii: "y"), count: 65_536)
        client.connection?.write(Array(line[..<30_000]))
        client.connection?.write(Array(line[30_000...]) + Array("\r\n".utf8))
        #expect(LoopDriver.run(until: { client.received.count >= line.count + 1 }, timeout: .seconds(30)))
        #expect(client.received == line + [UInt8(ascii: "\n")])
        #expect(log.lines.isEmpty)
    }
}
