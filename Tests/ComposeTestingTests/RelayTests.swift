import ComposeApp
import ComposeTesting
import Testing

/// Pairs the first two clients: what one sends, the other receives, with
/// back-pressure both ways — or, `careless`, writing from the first to the
/// second without looking at what `write` says.
struct PipeServer: Component {
    var careless = false
    let listener = TCPServer(port: 7100)
    let ends = InstanceComponent<PipeEnd>()
    let pairing = Pairing()
    var observers: Void {
        listener += { connection in
            ends.add { PipeEnd(connection: connection) }
            pairing.connections.append(connection)
            guard pairing.connections.count == 2 else { return }
            let (a, b) = (pairing.connections[0], pairing.connections[1])
            if careless {
                a.received += { chunk in b.write(chunk) }
                return
            }
            a.received.relay(to: b, pausing: a)
            b.received.relay(to: a, pausing: b)
        }
        ends.forward(\.connection.errors) += { _, error in pairing.errors.append(error) }
    }
}

struct PipeEnd: Component {
    let connection: TCPConnection
    var observers: Void { None }
}

@MainActor
final class Pairing {
    var connections: [TCPConnection] = []
    var errors: [LoopError] = []
}

@MainActor
@Suite struct RelayTests {
    @Test func aSlowSinkPausesItsSourceSoNothingPilesUp() throws {
        let app = TestApp(root: PipeServer())
        let pairing = try #require(app.root(as: PipeServer.self)).pairing
        let sender = try app.connect(port: 7100)
        let receiver = try app.connect(port: 7100)
        receiver.stopReading(window: 64 * 1024)

        let chunk = [UInt8](repeating: 7, count: 16 * 1024)
        for _ in 0..<640 { sender.write(chunk) }          // 10 MiB
        let sink = pairing.connections[1]
        // Paused at the high-water mark: far below the 4 MiB soft limit.
        #expect(sink.queuedBytes >= sink.highWaterMark)
        #expect(sink.queuedBytes <= sink.highWaterMark + chunk.count)
        #expect(sink.isOpen)
        #expect(pairing.errors.isEmpty)

        receiver.resumeReading()
        #expect(receiver.received.count == 640 * chunk.count)
        #expect(sink.queuedBytes == 0)
        #expect(pairing.errors.isEmpty)
    }

    @Test(arguments: [false, true])
    func aSinkThatGoesAwayWhileFullResumesItsSource(removed: Bool) throws {
        // The sink's component is removed, or the app aborts the sink,
        // while the relay has its source paused: nothing is left to wait
        // for, so the source reads again (and its bytes go nowhere).
        let app = TestApp(root: PipeServer())
        let server = try #require(app.root(as: PipeServer.self))
        let pairing = server.pairing
        let sender = try app.connect(port: 7100)
        let receiver = try app.connect(port: 7100)
        receiver.stopReading(window: 64 * 1024)
        var read = 0
        pairing.connections[0].received += { chunk in read += chunk.count }
        let chunk = [UInt8](repeating: 7, count: 16 * 1024)
        for _ in 0..<640 { sender.write(chunk) }
        let sink = pairing.connections[1]
        #expect(sink.isFull)
        #expect(read < 640 * chunk.count)
        if removed {
            server.ends.remove(server.ends.ids[1])
        } else {
            sink.abort()
        }
        app.advance(by: .zero)
        #expect(read == 640 * chunk.count)
        #expect(!sender.isClosedByApp)
    }

    @Test func withoutARelayTheSameFloodCutsTheSlowPeerOff() throws {
        let app = TestApp(root: PipeServer(careless: true))
        let pairing = try #require(app.root(as: PipeServer.self)).pairing
        let sender = try app.connect(port: 7100)
        let receiver = try app.connect(port: 7100)
        receiver.stopReading(window: 64 * 1024)
        let chunk = [UInt8](repeating: 7, count: 16 * 1024)
        for _ in 0..<640 { sender.write(chunk) }
        // 10 MiB queued: above the soft limit, under the hard one. The
        // receiver reads nothing in the grace period, so it is cut off.
        #expect(pairing.errors.isEmpty)
        app.advance(by: .seconds(30))
        #expect(pairing.errors.map(\.kind) == [.sendQueueExceeded])
        #expect(receiver.isResetByApp)
    }
}
