@_spi(Testing) import ComposeApp
import ComposeFraming
import Testing

/// Answers each line with `+OK` and the line: a request-reply protocol.
private struct PipelineServer: Component {
    let listener = TCPServer(host: "127.0.0.1", port: 0)
    let clients = InstanceComponent<PipelineSession>()
    let log: PipelineLog
    var observers: Void {
        listener += { connection in clients.add { PipelineSession(connection: connection, log: log) } }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

@MainActor
private final class PipelineLog {
    var connections = 0
    /// `LoopDriver.writeCalls` as each reply was written.
    var writeCallsAtReply: [Int] = []
}

private struct PipelineSession: Component {
    let connection: TCPConnection
    let log: PipelineLog
    var observers: Void {
        log.connections += 1
        connection.frames(using: LineDecoder()) += { line in
            connection.write { buffer in
                buffer.writeStaticString("+OK ")
                buffer.writeImmutableBuffer(line)
                buffer.writeStaticString("\r\n")
            }
            log.writeCallsAtReply.append(LoopDriver.writeCalls)
        }
    }
}

/// The replies to frames that arrive together (a client that pipelines, as
/// redis-benchmark -P 16 does) leave together: one write call, as redis
/// makes, not the first reply at once and the rest at the turn's end. A
/// lone frame's reply still goes at once.
@MainActor
@Suite(.serialized, .liveLoop) struct PipelinedReplyTests {
    @Test func repliesToFramesReadTogetherLeaveInOneWriteCallAndALoneReplyAtOnce() throws {
        let log = PipelineLog()
        let tree = ComponentTree(PipelineServer(log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: PipelineServer.self))
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && log.connections == 1 }))

        let start = LoopDriver.writeCalls
        client.connection?.write((1...16).map { "request \($0)\n" }.joined())
        let sixteen = (1...16).map { "+OK request \($0)\r\n" }.joined()
        #expect(LoopDriver.run(until: { client.received.count >= sixteen.utf8.count }))
        #expect(String(decoding: client.received, as: UTF8.self) == sixteen)
        // The client's write, then the server's one for all 16 replies
        // (none of which went at once: the counter did not move during them).
        #expect(LoopDriver.writeCalls - start == 2)
        #expect(log.writeCallsAtReply.count == 16 && Set(log.writeCallsAtReply) == [start + 1])

        let before = LoopDriver.writeCalls
        client.connection?.write("alone\n")
        #expect(LoopDriver.run(until: { client.received.count >= sixteen.utf8.count + "+OK alone\r\n".utf8.count }))
        #expect(String(decoding: client.received, as: UTF8.self) == sixteen + "+OK alone\r\n")
        // Written within the observer, not at the turn's end.
        #expect(log.writeCallsAtReply.last == before + 2)
        #expect(LoopDriver.writeCalls - before == 2)
    }
}
