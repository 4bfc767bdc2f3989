@_spi(Testing) import ComposeApp
import ComposeFraming
import Foundation
import Testing

@MainActor
private final class SinkLog {
    var frames = 0
    var exited = false
    var results: [WriteResult] = []
    weak var connection: TCPConnection?
}

/// A client's connection, kept but never read from.
private struct Passive: Component {
    let connection: TCPConnection
    var observers: Void { None }
}

/// Relays a child's 64 KiB records to the first client, paced by it,
/// without keeping it (the client's component does).
private struct ChildToClient: Component {
    let listener = TCPServer(host: "127.0.0.1", port: 0)
    let clients = InstanceComponent<Passive>()
    let producer: ChildProcess
    let log: SinkLog
    var observers: Void {
        listener += { connection in
            clients.add { Passive(connection: connection) }
            log.connection = connection
        }
        producer.didExit += { _ in log.exited = true }
    }

    func start() throws {
        weak let connection = log.connection
        producer.frames(using: FixedLengthDecoder(length: 64 * 1024), pausedWhileFull: connection) += { record in
            log.frames += 1
            log.results.append(connection?.write(record) ?? .closed)
        }
        try producer.start()
    }
}

/// Writes each 64 KiB record a client sends into `consumer`'s standard
/// input, paced by it.
private struct ClientToChild: Component {
    let listener = TCPServer(host: "127.0.0.1", port: 0)
    let clients = InstanceComponent<ClientToChildSession>()
    let consumer: ChildProcess
    let log: SinkLog
    var observers: Void {
        listener += { connection in clients.add { ClientToChildSession(connection: connection, consumer: consumer, log: log) } }
        consumer.didExit += { _ in log.exited = true }
    }
}

private struct ClientToChildSession: Component {
    let connection: TCPConnection
    let consumer: ChildProcess
    let log: SinkLog
    var observers: Void {
        log.connection = connection
        connection.frames(using: FixedLengthDecoder(length: 64 * 1024), pausedWhileFull: consumer) += { record in
            log.frames += 1
            log.results.append(consumer.write(record))
        }
    }
}

/// How the sink that paces the frames goes.
enum SinkDeparture: Sendable {
    /// Its component is removed.
    case removed
    /// The app aborts it, and keeps it.
    case aborted
}

/// Frames paced by another stream (`frames(using:pausedWhileFull:)`) whose
/// sink goes while full, on a live loop with real sockets and children:
/// nothing is left to wait for, so the frames go on (their writes say
/// `.closed`), and the source's end is reported. (Before, they waited for
/// ever: a sink that closed or went away never sent `didBecomeWritable`.)
@MainActor
@Suite(.serialized, .liveLoop) struct FramingSinkTests {
    @Test(arguments: [SinkDeparture.removed, .aborted])
    func aChildsFramesGoOnWhenTheClientPacingThemGoesWhileFull(_ departure: SinkDeparture) throws {
        // 32 MiB of records for a client that reads nothing: more than the
        // kernel's buffers and the connection's high-water mark (1 MiB)
        // hold, so the frames stop and the child's output is not read.
        let log = SinkLog()
        let producer = ChildProcess("head", arguments: ["-c", "\(32 << 20)", "/dev/zero"])
        let tree = ComponentTree(ChildToClient(producer: producer, log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: ChildToClient.self))
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && log.connection != nil }))
        client.connection?.pauseReading()
        try server.start()
        let connection = try #require(log.connection)
        // Full is enough: the frames check the sink before each record, so
        // none goes while it is full. (What the child's output holds then
        // depends on where the pipe's reads end: a read of exactly 64 KiB
        // leaves nothing buffered, so `bufferedInputBytes` may be 0.)
        #expect(LoopDriver.run(until: { connection.isFull }, timeout: .seconds(20)))
        var turns = 0
        LoopDriver.run(until: {
            turns += 1
            return turns > 20
        })
        let framesWhileFull = log.frames
        #expect(framesWhileFull < 512)
        #expect(!log.exited)

        switch departure {
        case .removed:
            for id in server.clients.ids { server.clients.remove(id) }
        case .aborted:
            connection.abort()
        }
        #expect(LoopDriver.run(until: { log.exited }, timeout: .seconds(20)))
        #expect(log.frames == 512)
        #expect(log.results.dropFirst(framesWhileFull).allSatisfy { $0 == .closed })
        // Aborted, it holds nothing back; removed, it still tries to write
        // out its queue (closeFlushTimeout) to a client that reads nothing.
        if departure == .aborted { #expect(!connection.isFull) }
    }

    @Test func aClientsFramesGoOnWhenTheChildPacingThemExitsWhileFull() throws {
        // The child never reads its input: the records fill its pipe, then
        // its queue up to the high-water mark (1 MiB), and the client's
        // frames wait. The child is killed: its input closes, and the
        // frames go on, each write saying `.closed`.
        let log = SinkLog()
        let consumer = ChildProcess("sleep", arguments: ["30"], acceptsInput: true)
        let tree = ComponentTree(ClientToChild(consumer: consumer, log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: ClientToChild.self))
        try consumer.start()
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && log.connection != nil }))
        client.connection?.write([UInt8](repeating: 1, count: 8 << 20))
        // Full is enough (see above): no record goes while it is.
        #expect(LoopDriver.run(until: { consumer.isFull }, timeout: .seconds(20)))
        var turns = 0
        LoopDriver.run(until: {
            turns += 1
            return turns > 20
        })
        let framesWhileFull = log.frames
        #expect(framesWhileFull < 128)
        consumer.kill(.kill)
        #expect(LoopDriver.run(until: { log.exited && log.frames == 128 }, timeout: .seconds(20)))
        #expect(!consumer.isFull)
        #expect(log.results.suffix(128 - framesWhileFull).allSatisfy { $0 == .closed })
        #expect(log.connection?.isOpen == true)
    }
}
