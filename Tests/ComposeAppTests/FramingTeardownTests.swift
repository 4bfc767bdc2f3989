@_spi(Testing) import ComposeApp
import ComposeFraming
import Foundation
import Testing

/// What a teardown test saw.
@MainActor
private final class TeardownLog {
    var frames = 0
    var errors: [LoopError] = []
    /// The stream whose frames are counted, weakly: nil once it is freed.
    weak var connection: TCPConnection?
    weak var process: ChildProcess?
    weak var input: StandardInput?
}

/// How a session lets its connection go at its `at`th frame.
private enum Departure {
    /// Its component is removed (the connection's last reference goes),
    /// without a close first.
    case remove
    /// The connection is closed, then its component removed.
    case closeThenRemove
}

/// Serves 4-byte length-prefixed frames (at most 16 bytes); the first
/// connection lets itself go at its `at`th frame (`departure`), and a
/// decoder error removes the component from the errors observer.
private struct DepartingServer: Component {
    let listener = TCPServer(host: "127.0.0.1", port: 0)
    let clients = InstanceComponent<DepartingSession>()
    let log: TeardownLog
    let departure: Departure
    let at: Int
    var observers: Void {
        listener += { connection in
            let first = log.connection == nil && clients.count == 0
            if first { log.connection = connection }
            clients.add { DepartingSession(connection: connection, log: log, departure: first ? departure : nil, at: at) }
        }
        clients.forward(\.leave) += { id, _ in clients.remove(id) }
        clients.forward(\.connection.errors) += { id, error in
            log.errors.append(error)
            clients.remove(id)
        }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

private struct DepartingSession: Component {
    let connection: TCPConnection
    let log: TeardownLog
    let departure: Departure?
    let at: Int
    let leave = SignalEmitter()
    var observers: Void {
        var count = 0
        connection.frames(using: LengthPrefixedDecoder(maximumLength: 16)) += { frame in
            count += 1
            // The others are echoed. The departing one is not answered: a
            // reply batched for the end of the turn would keep the
            // connection alive until then.
            guard let departure else {
                _ = try? connection.write(frame, using: LengthPrefixedEncoder())
                return
            }
            log.frames += 1
            guard count == at else { return }
            if departure == .closeThenRemove { connection.close() }
            leave.send()
        }
    }
}

/// A child's output lines, from a component removed at its `at`th line.
private struct ProducerHost: Component {
    let producers = InstanceComponent<Producer>()
    let log: TeardownLog
    let at: Int
    var observers: Void {
        producers.forward(\.leave) += { id, _ in producers.remove(id) }
    }

    func start(_ arguments: [String]) {
        producers.add { Producer(process: ChildProcess("seq", arguments: arguments, startsWithComponent: true), log: log, at: at) }
    }
}

private struct Producer: Component {
    let process: ChildProcess
    let log: TeardownLog
    let at: Int
    let leave = SignalEmitter()
    var observers: Void {
        log.process = process
        process.frames(using: LineDecoder()) += { _ in
            log.frames += 1
            if log.frames == at { leave.send() }
        }
    }
}

/// Standard input (a pipe standing in for it), framed, from a component
/// removed at its `at`th line.
private struct InputHost: Component {
    let readers = InstanceComponent<InputReader>()
    let log: TeardownLog
    let at: Int
    var observers: Void {
        readers.forward(\.leave) += { id, _ in readers.remove(id) }
    }

    func read(fileDescriptor fd: Int32) {
        readers.add { InputReader(input: StandardInput(fileDescriptor: fd), log: log, at: at) }
    }
}

private struct InputReader: Component {
    let input: StandardInput
    let log: TeardownLog
    let at: Int
    let leave = SignalEmitter()
    var observers: Void {
        log.input = input
        input.frames(using: LineDecoder()) += { _ in
            log.frames += 1
            if log.frames == at { leave.send() }
        }
    }
}

/// `count` numbered lines, `1\n2\n...`.
private func numberedLines(_ count: Int) -> [UInt8] {
    Array((1...count).map { "\($0)\n" }.joined().utf8)
}

/// `count` 4-byte length-prefixed frames.
private func framedRequests(_ count: Int) -> [UInt8] {
    var buffer = ByteBuffer()
    for index in 1...count { try? LengthPrefixedEncoder().encode(ByteBuffer(string: "frame \(index)"), into: &buffer) }
    return Array(buffer.readableBytesView)
}

/// The streams of `frames(using:)` freed in the middle of a delivery, on a
/// live loop: the frame delivery holds its stream `unowned(unsafe)`
/// (docs/unsafe.md, `FrameDelivery.source` and the gates), so a delivery
/// that touched its stream after the stream's deinit would read freed
/// memory. Each test frees the stream from a frame's observer in a loop
/// turn the delivery was resumed in after the turn's budget (10 frames):
/// there no dispatch encloses the frame's, so the removed component, and
/// with it the stream, is freed as soon as that frame's dispatch ends,
/// while the delivery still has frames buffered behind it. Run under
/// AddressSanitizer by `make test-asan`: with a proof that did not hold
/// (the stream's deinit not closing its delivery) these fail there with a
/// heap-use-after-free.
@MainActor
@Suite(.serialized, .liveLoop) struct FramingTeardownTests {
    private func server(_ departure: Departure, at: Int) throws -> (ComponentTree, DepartingServer, TeardownLog) {
        let log = TeardownLog()
        let tree = ComponentTree(DepartingServer(log: log, departure: departure, at: at))
        tree.activate()
        return (tree, try #require(tree.root.value(as: DepartingServer.self)), log)
    }

    @Test(arguments: [Departure.remove, .closeThenRemove])
    fileprivate func aConnectionFreedByItsFramesObserverMidBatchEndsTheDelivery(_ departure: Departure) throws {
        LoopDriver.lineBudgetPerTurn = 10
        let (tree, server, log) = try server(departure, at: 15)
        defer { tree.destroy(); LoopDriver.settle() }
        let leaving = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { leaving.connection != nil && server.clients.count == 1 }))
        // A second client: the listener's last value is its connection,
        // so nothing but the first one's component holds the first.
        let staying = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { staying.connection != nil && server.clients.count == 2 }))
        // 100 frames in one write: frames 1-10 in the turn that reads
        // them, 11-20 in the next, resumed by the loop (no dispatch
        // encloses it); the 15th frees the connection.
        leaving.connection?.write(framedRequests(100))
        #expect(LoopDriver.run(until: { leaving.closed != nil }))
        var turns = 0
        LoopDriver.run(until: {
            turns += 1
            return turns > 5
        })
        #expect(log.frames == 15)
        #expect(log.connection == nil)
        #expect(server.clients.count == 1)
        #expect(log.errors.isEmpty)
        // The other connection is still served.
        staying.connection?.write(framedRequests(3))
        #expect(LoopDriver.run(until: { staying.received.count == framedRequests(3).count }))
        #expect(staying.received == framedRequests(3))
    }

    @Test func aConnectionFreedByItsErrorsObserverAfterADecoderErrorMidBatch() throws {
        // Frame 15 announces more than the maximum: the delivery fails in
        // the resumed turn; the errors observer removes the component (the
        // connection's last reference) while the connection reports it.
        LoopDriver.lineBudgetPerTurn = 10
        let (tree, server, log) = try server(.remove, at: 1_000)
        defer { tree.destroy(); LoopDriver.settle() }
        let rude = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { rude.connection != nil && server.clients.count == 1 }))
        let other = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { other.connection != nil && server.clients.count == 2 }))
        var header = ByteBuffer()
        header.writeInteger(UInt32(5_000))
        rude.connection?.write(framedRequests(14) + Array(header.readableBytesView) + framedRequests(20))
        #expect(LoopDriver.run(until: { rude.closed != nil }))
        #expect(log.frames == 14)
        #expect(log.errors.map(\.kind) == [.frameTooLarge])
        #expect(LoopDriver.run(until: { log.connection == nil }))
        #expect(server.clients.count == 1)
        other.connection?.write(framedRequests(2))
        #expect(LoopDriver.run(until: { other.received.count == framedRequests(2).count }))
    }

    @Test func aChildProcessWhoseComponentGoesMidBatchIsLeftAlone() throws {
        // The child's component is removed at its 15th line, in a turn
        // resumed by the loop: the process stops and is freed once its run
        // ends; the frames left are not delivered to anyone.
        LoopDriver.lineBudgetPerTurn = 10
        let log = TeardownLog()
        let tree = ComponentTree(ProducerHost(log: log, at: 15))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let host = try #require(tree.root.value(as: ProducerHost.self))
        host.start(["1", "200"])
        #expect(LoopDriver.run(until: { log.frames >= 15 && host.producers.count == 0 }))
        #expect(LoopDriver.run(until: { log.process == nil }))
        #expect(log.frames == 15)
    }

    @Test func standardInputWhoseComponentGoesMidBatchIsLeftAlone() throws {
        // A pipe holding 100 lines stands in for standard input; its
        // component is removed at the 15th line, in a turn resumed by the
        // loop, which frees the input while 85 lines wait in its buffer.
        LoopDriver.lineBudgetPerTurn = 10
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let lines = numberedLines(100)
        _ = lines.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        // The input's handle closes the descriptor it is given (a copy).
        defer { close(fds[0]) }
        let log = TeardownLog()
        let tree = ComponentTree(InputHost(log: log, at: 15))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let host = try #require(tree.root.value(as: InputHost.self))
        host.read(fileDescriptor: dup(fds[0]))
        #expect(LoopDriver.run(until: { log.frames >= 15 && host.readers.count == 0 }))
        var turns = 0
        LoopDriver.run(until: {
            turns += 1
            return turns > 5
        })
        #expect(log.frames == 15)
        #expect(log.input == nil)
    }
}
