@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// Answers `get N` with N bytes in one write (a key-value daemon's GET of a
/// large value), and, `flood`, writes `floodChunks` chunks of 1 MiB to each
/// client as it connects, without looking at what `write` says.
struct ReplyServer: Component {
    var limits: SendQueueLimits = .default
    var floodChunks = 0
    let listener = TCPServer(host: "127.0.0.1", port: 0)
    let sessions = InstanceComponent<ReplySession>()
    let log = ReplyLog()
    var observers: Void {
        listener += { connection in
            connection.sendQueueLimits = limits
            log.connections.append(connection)
            sessions.add { ReplySession(connection: connection, floodChunks: floodChunks) }
        }
        sessions.forward(\.connection.errors) += { _, error in log.errors.append(error) }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
    }
}

struct ReplySession: Component {
    let connection: TCPConnection
    let floodChunks: Int
    var observers: Void {
        connection.lines += { line in
            let words = line.split(separator: " ")
            guard words.count == 2, words[0] == "get", let size = Int(words[1]) else { return }
            connection.write(ReplySession.value(size))
        }
        didAppear += {
            let chunk = [UInt8](repeating: 0x66, count: 1 << 20)
            for _ in 0..<floodChunks where connection.write(chunk) != .closed {}
        }
    }

    /// N bytes of a pattern whose period (a prime) lines up with no piece
    /// the kernel hands over, so a piece lost, doubled or reordered shows.
    static func value(_ size: Int) -> [UInt8] {
        let period = (0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        while bytes.count < size { bytes.append(contentsOf: period.prefix(size - bytes.count)) }
        return bytes
    }
}

@MainActor
final class ReplyLog {
    var connections: [TCPConnection] = []
    var errors: [LoopError] = []
}

/// The send queue judges the peer, not the reply, on real sockets of
/// 127.0.0.1: a large reply reaches a client that reads; a client that
/// does not is reset (it reads `ECONNRESET`, not an orderly end), and the
/// server holds no more than the hard limit for it. (The judgement's logic,
/// on a virtual clock: SendQueueLimitsTests.)
@MainActor
@Suite(.serialized, .liveLoop) struct SendQueueTests {
    /// Runs `body` with an active ReplyServer, then destroys it.
    func withServer(_ server: ReplyServer, _ body: (ReplyServer) throws -> Void) throws {
        let tree = ComponentTree(server)
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        try body(try #require(tree.root.value(as: ReplyServer.self)))
    }

    @Test func aTwentyMegabyteReplyReachesAClientThatReadsWithTheDefaultLimits() throws {
        try withServer(ReplyServer()) { server in
            let client = ClientProbe(port: server.listener.port)
            #expect(LoopDriver.run(until: { client.connection != nil }))
            client.connection?.writeLine("get 20000000")
            #expect(LoopDriver.run(until: { client.received.count >= 20_000_000 || client.closed != nil }, timeout: .seconds(60)))
            #expect(sameBytes(client.received, ReplySession.value(20_000_000)))
            #expect(client.closed == nil)
            #expect(server.log.errors.isEmpty)
            let connection = try #require(server.log.connections.first)
            #expect(connection.isOpen)
            // The reply queued (more than the kernel takes at once), within
            // the hard limit, and all of it left.
            #expect(connection.peakQueuedBytes > 0)
            #expect(connection.peakQueuedBytes <= SendQueueLimits.default.hard)
            #expect(connection.queuedBytes == 0)
        }
    }

    @Test func aClientThatStopsReadingIsResetAfterTheGracePeriod() throws {
        let limits = SendQueueLimits(soft: 256 << 10, hard: 64 << 20, gracePeriod: .milliseconds(300))
        try withServer(ReplyServer(limits: limits)) { server in
            let client = try RudeClient.connect(port: server.listener.port)
            defer { close(client) }
            RudeClient.send(client, bytes: Array("get 16000000\n".utf8))
            // It reads nothing. Judged every 300 ms: the first period may
            // see the kernel's buffers fill; the next sees nothing read.
            #expect(LoopDriver.run(until: { !server.log.errors.isEmpty }))
            let error = try #require(server.log.errors.first)
            #expect(error.kind == .sendQueueExceeded)
            #expect("\(error)".contains("(soft limit, sendQueueLimits.soft)"))
            #expect("\(error)".hasSuffix("so the connection was reset)"))
            let served = try #require(server.log.connections.first)
            #expect(served.peakQueuedBytes > limits.soft)
            #expect(served.peakQueuedBytes <= limits.hard)

            // The client reads again: at most what the kernel had for it,
            // then ECONNRESET; never an orderly end behind the 16 MB.
            let (read, failure) = Self.readToTheEnd(client)
            #expect(failure == ECONNRESET, "read \(read) bytes, then \(failure == 0 ? "the end" : String(cString: strerror(failure)))")
            #expect(read < 16_000_000)
        }
    }

    @Test func theHardLimitResetsAtOnceAndTheQueueNeverPassesIt() throws {
        // 32 MiB written at once to a client that reads nothing: far more
        // than the kernel takes; the write past 8 MiB is refused.
        let limits = SendQueueLimits(soft: 1 << 20, hard: 8 << 20, gracePeriod: .seconds(3600))
        try withServer(ReplyServer(limits: limits, floodChunks: 32)) { server in
            let client = try RudeClient.connect(port: server.listener.port)
            defer { close(client) }
            #expect(LoopDriver.run(until: { !server.log.errors.isEmpty }))
            let error = try #require(server.log.errors.first)
            #expect("\(error)".contains("past 8 MiB (hard limit, sendQueueLimits.hard)"))
            let served = try #require(server.log.connections.first)
            #expect(served.peakQueuedBytes > limits.soft)
            #expect(served.peakQueuedBytes <= limits.hard)
            #expect(!served.isOpen)

            let (read, failure) = Self.readToTheEnd(client)
            #expect(failure == ECONNRESET, "read \(read) bytes, then \(failure == 0 ? "the end" : String(cString: strerror(failure)))")
        }
    }

    @Test func aCloseThatGivesUpOnAStuckClientResetsIt() throws {
        try withServer(ReplyServer()) { server in
            let client = try RudeClient.connect(port: server.listener.port)
            defer { close(client) }
            RudeClient.send(client, bytes: Array("get 12000000\n".utf8))
            #expect(LoopDriver.run(until: { (server.log.connections.first?.queuedBytes ?? 0) > 1 << 20 }))
            let served = try #require(server.log.connections.first)
            served.closeFlushTimeout = .milliseconds(200)
            served.close()
            #expect(LoopDriver.run(until: { !server.log.errors.isEmpty }))
            #expect(server.log.errors.map { "\($0)".contains("after close() (closeFlushTimeout)") } == [true])

            let (read, failure) = Self.readToTheEnd(client)
            #expect(failure == ECONNRESET, "read \(read) bytes, then \(failure == 0 ? "the end" : String(cString: strerror(failure)))")
        }
    }

    /// Reads `fd` (a blocking socket whose server is gone) until it fails
    /// or ends: the bytes read, and the error (0 for an orderly end). A
    /// raw socket, not a ``TCPConnection``: libuv reports a reset that
    /// comes with a hangup as the end of input.
    static func readToTheEnd(_ fd: Int32) -> (read: Int, error: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                total += count
            } else if count == 0 {
                return (total, 0)
            } else if errno != EINTR {
                return (total, errno)
            }
        }
    }
}
