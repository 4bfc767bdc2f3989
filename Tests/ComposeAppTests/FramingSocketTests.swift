@_spi(Testing) import ComposeApp
import ComposeFraming
import Foundation
import Testing

/// Answers each length-prefixed request on its connection: `echo` frames
/// come back as they are, `big N` is answered with N frames of 64 KiB.
private struct FrameServer: Component {
    let listener = TCPServer(host: "127.0.0.1", port: 0)
    let clients = InstanceComponent<FrameSession>()
    let log: FrameLog
    var observers: Void {
        listener += { connection in clients.add { FrameSession(connection: connection, log: log) } }
        clients.forward(\.connection.errors) += { _, error in log.errors.append(error) }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

/// Aborts each connection at its 15th frame (a later turn than the first
/// 10, with a budget of 10), and lets its component go.
private struct AbortingServer: Component {
    let listener = TCPServer(host: "127.0.0.1", port: 0)
    let clients = InstanceComponent<AbortingSession>()
    let log: FrameLog
    var observers: Void {
        listener += { connection in clients.add { AbortingSession(connection: connection, log: log) } }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

private struct AbortingSession: Component {
    let connection: TCPConnection
    let log: FrameLog
    var observers: Void {
        connection.frames(using: LengthPrefixedDecoder()) += { _ in
            log.frames += 1
            if log.frames == 15 { connection.abort() }
        }
    }
}

/// ``FrameServer`` on a Unix domain socket.
private struct UnixFrameServer: Component {
    let listener: UnixServer
    let clients = InstanceComponent<FrameSession>()
    let log: FrameLog
    var observers: Void {
        listener += { connection in clients.add { FrameSession(connection: connection, log: log) } }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

@MainActor
private final class FrameLog {
    var frames = 0
    var errors: [LoopError] = []
    var connections: [TCPConnection] = []
}

private struct FrameSession: Component {
    let connection: TCPConnection
    let log: FrameLog
    static let reply = ByteBuffer(repeating: 7, count: 64 * 1024)
    var observers: Void {
        log.connections.append(connection)
        connection.frames(using: LengthPrefixedDecoder(maximumLength: 1024)) += { frame in
            log.frames += 1
            if frame.readableBytes == 3, String(buffer: frame) == "big" {
                _ = try? connection.write(Self.reply, using: LengthPrefixedEncoder())
            } else {
                _ = try? connection.write(frame, using: LengthPrefixedEncoder())
            }
        }
    }
}

/// `texts` as 4-byte big-endian length-prefixed frames.
private func framed(_ texts: [String]) -> [UInt8] {
    var buffer = ByteBuffer()
    for text in texts { try? LengthPrefixedEncoder().encode(ByteBuffer(string: text), into: &buffer) }
    return Array(buffer.readableBytesView)
}

/// Frames over real sockets on 127.0.0.1 (and a Unix socket): the loop's
/// turn budget, limits, back-pressure through the kernel's buffers.
@MainActor
@Suite(.serialized, .liveLoop) struct FramingSocketTests {
    private func server() throws -> (ComponentTree, FrameServer, FrameLog) {
        let log = FrameLog()
        let tree = ComponentTree(FrameServer(log: log))
        tree.activate()
        return (tree, try #require(tree.root.value(as: FrameServer.self)), log)
    }

    @Test func framesSplitAcrossWritesAreEchoedWithinTheTurnBudget() throws {
        LoopDriver.lineBudgetPerTurn = 100
        let (tree, server, log) = try server()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && log.connections.count == 1 }))
        // 5,000 frames in one write, then one cut in two.
        let texts = (1...5_000).map { "frame \($0)" }
        client.connection?.write(framed(texts))
        let last = framed(["the last one"])
        client.connection?.write(Array(last.prefix(6)))
        #expect(LoopDriver.run(until: { log.frames == 5_000 }))
        client.connection?.write(Array(last.dropFirst(6)))
        let expected = framed(texts + ["the last one"])
        #expect(LoopDriver.run(until: { client.received.count >= expected.count }))
        #expect(client.received == expected)
        #expect(LoopDriver.mostLinesInTurn == 100)
        #expect(log.connections.first?.bufferedInputBytes == 0)
    }

    @Test func theRepliesToFramesOfOneTurnLeaveInAFewWrites() throws {
        // 500 requests in one write, each answered in the same turn with
        // write(_:using:): the replies go into the turn's batch, not one
        // write call each.
        let (tree, server, log) = try server()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && log.connections.count == 1 }))
        let texts = (1...500).map { "request \($0)" }
        let before = LoopDriver.writeCalls
        client.connection?.write(framed(texts))
        #expect(LoopDriver.run(until: { client.received.count >= framed(texts).count }))
        #expect(client.received == framed(texts))
        // The client's one write, and the server's few (a read's frames
        // are one turn's; the kernel may split the 7 KiB request).
        #expect(LoopDriver.writeCalls - before <= 6)
    }

    @Test func aFrameTooLargeClosesThatConnectionAndTheOthersGoOn() throws {
        let (tree, server, log) = try server()
        defer { tree.destroy(); LoopDriver.settle() }
        let rude = ClientProbe(port: server.listener.port)
        let polite = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { rude.connection != nil && polite.connection != nil && log.connections.count == 2 }))
        var header = ByteBuffer()
        header.writeInteger(UInt32(5_000))
        rude.connection?.write(framed(["before"]) + Array(header.readableBytesView))
        #expect(LoopDriver.run(until: { rude.closed != nil }))
        #expect(rude.received == framed(["before"]))
        let error = try #require(log.errors.first)
        #expect(error.kind == .frameTooLarge)
        #expect(error.framingError == .frameTooLarge(FrameTooLarge(length: 5_000, limit: 1024, isAnnounced: true)))
        #expect("\(error)".contains("a frame announcing 5000 bytes, more than the maximum frame length of 1024 bytes"))
        #expect(error.context?.hasPrefix("127.0.0.1:") == true)
        polite.connection?.write(framed(["still served"]))
        #expect(LoopDriver.run(until: { polite.received.count == framed(["still served"]).count }))
        #expect(polite.closed == nil)
    }

    @Test func aClientThatDoesNotReadPausesDecodingAndResumesItWhenItReads() throws {
        let (tree, server, log) = try server()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && log.connections.count == 1 }))
        client.connection?.pauseReading()
        // 400 requests in one write, each answered with 64 KiB: 25 MiB,
        // more than the kernel's buffers and the 4 MiB send queue hold.
        let requests = framed(Array(repeating: "big", count: 400))
        client.connection?.write(requests)
        let connection = try #require(log.connections.first)
        // The replies fill the kernel's buffers, then the send queue up to
        // its high-water mark: decoding stops there, with the rest of the
        // requests undecoded in the buffer (at most what was read).
        #expect(LoopDriver.run(until: { connection.isFull && connection.bufferedInputBytes > 0 }, timeout: .seconds(20)))
        // A few more turns: nothing more is decoded while the queue is full.
        var turns = 0
        LoopDriver.run(until: {
            turns += 1
            return turns > 20
        })
        #expect(log.frames < 400)
        #expect(connection.bufferedInputBytes <= requests.count)
        #expect(connection.isOpen)
        #expect(log.errors.isEmpty)

        client.connection?.resumeReading()
        let expected = 400 * (4 + 64 * 1024)
        #expect(LoopDriver.run(until: { client.received.count >= expected }, timeout: .seconds(30)))
        #expect(log.frames == 400)
        #expect(connection.bufferedInputBytes == 0)
        #expect(log.errors.isEmpty)
    }

    @Test func aConnectionClosedWhileItsFramesWaitForTheNextTurnIsLeftAlone() throws {
        // The delivery waits for the next turn (budget 10) holding the
        // connection unowned; the connection is aborted and released in
        // between. Run under AddressSanitizer (make test-asan), a delivery
        // that touched it afterwards would fail here.
        LoopDriver.lineBudgetPerTurn = 10
        let log = FrameLog()
        let tree = ComponentTree(AbortingServer(log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: AbortingServer.self))
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil }))
        client.connection?.write(framed((1...100).map { "frame \($0)" }))
        #expect(LoopDriver.run(until: { client.closed != nil }))
        var turns = 0
        LoopDriver.run(until: {
            turns += 1
            return turns > 5
        })
        #expect(log.frames == 15)
        #expect(server.clients.count == 0)
    }

    @Test func framesOverAUnixSocket() throws {
        try withSocketDirectory { directory in
            let path = directory + "/frames.sock"
            let log = FrameLog()
            let tree = ComponentTree(UnixFrameServer(listener: UnixServer(path: path), log: log))
            tree.activate()
            defer { tree.destroy(); LoopDriver.settle() }
            var client: TCPConnection?
            var received: [UInt8] = []
            TCPConnection.connect(unixPath: path) { result in
                guard case .success(let connection) = result else { return }
                client = connection
                connection += { chunk in received += chunk }
                connection.start()
            }
            #expect(LoopDriver.run(until: { client != nil && log.connections.count == 1 }))
            client?.write(framed(["over", "unix"]))
            #expect(LoopDriver.run(until: { received.count == framed(["over", "unix"]).count }))
            #expect(received == framed(["over", "unix"]))
            client?.abort()
        }
    }
}
