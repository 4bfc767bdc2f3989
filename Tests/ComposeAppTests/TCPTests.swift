@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// Echoes every byte back.
struct EchoComponent: Component {
    let connection: TCPConnection
    var observers: Void {
        connection += { bytes in
            connection.write(bytes)
        }
    }
}

/// A server of echo components, one per connection.
struct EchoServer: Component {
    let listener = TCPServer(port: 0)
    let clients = InstanceComponent<EchoComponent>()
    var observers: Void {
        listener += { connection in
            clients.add { EchoComponent(connection: connection) }
        }
        clients.forward(\.connection.didClose) += { id, _ in
            clients.remove(id)
        }
    }
}

/// Runs `body` with an active EchoServer and its tree, then destroys it.
@MainActor
func withEchoServer(_ body: (EchoServer, ComponentTree) throws -> Void) throws {
    let tree = ComponentTree(EchoServer())
    tree.activate()
    defer { tree.destroy(); LoopDriver.settle() }
    try body(try #require(tree.root.value(as: EchoServer.self)), tree)
}

/// Collects what a client connection receives.
///
/// The probe owns its connection, and the connection's observers hold the
/// probe weakly: a probe the test drops is released with its connection
/// (which its deinit closes).
@MainActor
final class ClientProbe {
    var connection: TCPConnection?
    var received: [UInt8] = []
    var closed: TCPConnection.CloseReason?
    var reachedEnd = false
    var failure: LoopError?

    init(port: UInt16) {
        TCPConnection.connect(host: "127.0.0.1", port: port) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let connection):
                self.connection = connection
                // In bulk: a debug build appends 100 MB byte by byte slowly.
                connection += { [weak self] chunk in chunk.withUnsafeBytes { self?.received.append(contentsOf: $0) } }
                connection.didClose += { [weak self] in self?.closed = $0 }
                connection.didReachEnd += { [weak self] in self?.reachedEnd = true }
                connection.start()
            case .failure(let error):
                failure = error
            }
        }
    }
}

/// A weak reference, to check that something was released.
struct Weak<Object: AnyObject> {
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}

/// Real sockets on 127.0.0.1, on a live loop: bytes through the kernel,
/// back-pressure against its buffers, its errors and resets. (A
/// connection's own logic, on a TestApp: TCPConnectionTests.)
@MainActor
@Suite(.serialized, .liveLoop) struct TCPTests {
    @Test func anEchoServerSendsEveryByteBackInOrder() throws {
        try withEchoServer { echo, _ in
            let server = echo.listener
            #expect(server.isListening)
            #expect(server.port != 0)

            let client = ClientProbe(port: server.port)
            #expect(LoopDriver.run(until: { client.connection != nil }))
            let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            client.connection?.write(payload)
            #expect(LoopDriver.run(until: { client.received.count >= payload.count }))
            #expect(sameBytes(client.received, payload))
        }
    }

    @Test func aHundredConcurrentClientsEachGetTheirOwnBytesBack() throws {
        try withEchoServer { echo, _ in
            let size = 1 << 20
            let clients = (0..<100).map { _ in ClientProbe(port: echo.listener.port) }
            #expect(LoopDriver.run(until: { clients.allSatisfy { $0.connection != nil } }))
            #expect(LoopDriver.run(until: { echo.clients.count == 100 }))
            // One body for all (a debug build is slow to make 100 MB byte by
            // byte); each client's payload starts with its own index, so a
            // mix-up between connections shows.
            let body = (0..<size - 8).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
            var payloads: [[UInt8]] = []
            for (index, client) in clients.enumerated() {
                var payload = withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) }
                payload.append(contentsOf: body)
                payloads.append(payload)
                client.connection?.write(payload)
            }
            #expect(LoopDriver.run(until: { clients.allSatisfy { $0.received.count >= size } }, timeout: .seconds(60)))
            for (client, payload) in zip(clients, payloads) {
                #expect(client.received.count == payload.count)
                #expect(sameBytes(client.received, payload))
            }
            for client in clients { client.connection?.close() }
            #expect(LoopDriver.run(until: { echo.clients.count == 0 }))
        }
    }

    @Test func aClientThatStopsReadingEngagesBackPressureAndLosesNothing() throws {
        try withEchoServer { echo, _ in
            let client = ClientProbe(port: echo.listener.port)
            #expect(LoopDriver.run(until: { client.connection != nil && echo.clients.count == 1 }))
            let connection = try #require(client.connection)
            connection.pauseReading()

            let serverSide = try #require(echo.clients.ids.first.flatMap { echo.clients[$0] }?.connection)
            // Send until the server's queue is full: the kernel's buffers on
            // both sides fill first, then the server queues what it cannot
            // send. The client writes a chunk whenever its own queue is
            // short; each loop iteration is woken by that I/O.
            let chunk = [UInt8](repeating: 0x5a, count: 64 * 1024)
            var sent = 0
            let filled = LoopDriver.run(until: {
                if serverSide.queuedBytes >= serverSide.highWaterMark { return true }
                if connection.queuedBytes < 4 * chunk.count, sent < 256 * chunk.count {
                    connection.write(chunk)
                    sent += chunk.count
                }
                return false
            }, timeout: .seconds(30))
            #expect(filled, "the server queued \(serverSide.queuedBytes) bytes after \(sent) were sent")
            // Full, the server stops reading: its memory stays bounded by its
            // queue limit plus one read, however long the client keeps
            // writing. `settle` runs every callback that is ready now: a
            // server still reading would read what its socket holds (megabytes
            // on loopback) and queue its echo.
            for _ in 0..<16 {
                connection.write(chunk)
                sent += chunk.count
            }
            LoopDriver.settle()
            #expect(serverSide.queuedBytes <= serverSide.highWaterMark + 64 * 1024)

            connection.resumeReading()
            #expect(LoopDriver.run(until: { client.received.count >= sent }, timeout: .seconds(30)))
            #expect(client.received.count == sent)
            #expect(client.received.allSatisfy { $0 == 0x5a })
        }
    }

    @Test func listeningOnAPortInUseIsAnErrorNamingTheAddress() throws {
        let first = TCPServer(port: 0)
        try first.listen()
        defer { first.close(); LoopDriver.settle() }
        let second = TCPServer(port: first.port)
        #expect {
            try second.listen()
        } throws: { error in
            guard let error = error as? LoopError else { return false }
            // libuv reports a bind conflict from uv_listen.
            return error.kind == .addressInUse
                && error.description == "uv_listen failed: EADDRINUSE (address already in use) for 127.0.0.1:\(first.port)"
        }
    }

    @Test func connectingToAClosedPortIsRefused() throws {
        let probe = TCPServer(port: 0)
        try probe.listen()
        let port = probe.port
        probe.close()
        LoopDriver.settle()
        let client = ClientProbe(port: port)
        #expect(LoopDriver.run(until: { client.failure != nil }))
        #expect(client.failure?.kind == .connectionRefused)
        #expect(client.failure?.description == "uv_tcp_connect failed: ECONNREFUSED (connection refused) for 127.0.0.1:\(port)")
    }

    @Test func halfCloseDeliversEndOfInputAfterTheQueuedBytes() throws {
        try withEchoServer { echo, _ in
            let client = ClientProbe(port: echo.listener.port)
            #expect(LoopDriver.run(until: { client.connection != nil }))
            client.connection?.closesOnEndOfInput = false
            client.connection?.write("last words")
            client.connection?.shutdownWrite()
            #expect(client.connection?.write("too late") == .closed)
            // The server echoes, sees end of input, closes; the client reads
            // the echo and then the end.
            #expect(LoopDriver.run(until: { client.reachedEnd }))
            #expect(String(decoding: client.received, as: UTF8.self) == "last words")
            #expect(client.closed == nil)
        }
    }

    @Test func aKeptChunkKeepsItsBytesAndChunksAreNotRemembered() throws {
        try withEchoServer { echo, _ in
            let client = ClientProbe(port: echo.listener.port)
            #expect(LoopDriver.run(until: { client.connection != nil }))
            let connection = try #require(client.connection)
            var kept: [ByteChunk] = []
            connection += { kept.append($0) }

            connection.write("first")
            #expect(LoopDriver.run(until: { client.received.count == 5 }))
            connection.write("second")
            #expect(LoopDriver.run(until: { client.received.count == 11 }))
            // Reads reuse one buffer only while nobody keeps a chunk of it, so
            // the first chunk still holds its own bytes after the second read.
            #expect(kept.map { String(decoding: Array($0), as: UTF8.self) } == ["first", "second"])
            // The emitter does not keep chunks alive itself.
            #expect(connection.emitter.lastValue == nil)
        }
    }

    @Test func aPeerResetDuringAWriteFailsOnlyThatConnection() throws {
        /// Sends a flood to each client as soon as it connects.
        struct Flooder: Component {
            let connection: TCPConnection
            let log: LineLog
            var observers: Void {
                didAppear += {
                    // 8 MiB at once, on purpose: more than the slow-consumer
                    // limits, which this test is not about.
                    connection.sendQueueLimits = .unlimited
                    let chunk = [UInt8](repeating: 1, count: 256 * 1024)
                    for _ in 0..<32 { connection.write(chunk) }
                }
                connection.didClose += { reason in log.lines.append("\(reason)") }
            }
        }
        struct FloodServer: Component {
            let listener = TCPServer(port: 0)
            let clients = InstanceComponent<Flooder>()
            let log: LineLog
            var observers: Void {
                listener += { connection in
                    clients.add { Flooder(connection: connection, log: log) }
                }
                clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
            }
        }
        let log = LineLog()
        let tree = ComponentTree(FloodServer(log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: FloodServer.self))
        let victim = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { server.clients.count == 1 && victim.connection != nil }))
        let victimsFlooder = try #require(server.clients.ids.first.flatMap { server.clients[$0] }?.connection)
        let bystander = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { server.clients.count == 2 && bystander.connection != nil }))
        // The victim reads a little, then resets: closing a socket with
        // unread data makes the kernel send RST. The data is there once the
        // server has handed the kernel more than the victim read.
        #expect(LoopDriver.run(until: { victim.received.count > 0 }))
        victim.connection?.pauseReading()
        let flood = 32 * 256 * 1024
        #expect(LoopDriver.run(until: { flood - victimsFlooder.queuedBytes > victim.received.count }))
        victim.connection?.abort()
        #expect(LoopDriver.run(until: { log.lines.contains { $0.contains("ECONNRESET") || $0.contains("EPIPE") } }))
        #expect(LoopDriver.run(until: { server.clients.count == 1 }))
        // The bystander still gets all of its flood.
        #expect(LoopDriver.run(until: { bystander.received.count == 32 * 256 * 1024 }, timeout: .seconds(30)))
    }

    @Test func tenThousandConnectDisconnectCyclesLeaveNothingBehind() throws {
        try withEchoServer { echo, tree in
            LoopDriver.settle()
            let handles = LoopDriver.openHandleCount
            let before = tree.statistics
            var probes: [Weak<ClientProbe>] = []
            for _ in 0..<10_000 {
                let client = ClientProbe(port: echo.listener.port)
                probes.append(Weak(client))
                #expect(LoopDriver.run(until: { echo.clients.count == 1 }))
                client.connection?.abort()
                #expect(LoopDriver.run(until: { echo.clients.count == 0 }))
            }
            LoopDriver.settle()
            #expect(tree.statistics == before)
            #expect(LoopDriver.openHandleCount == handles)
            // Nothing of the clients' side is left either.
            #expect(probes.allSatisfy { $0.value == nil })
        }
    }
}

@MainActor
final class LineLog {
    var lines: [String] = []
}

/// Compares two byte arrays with memcmp (a debug build compares 1 MB arrays
/// element by element slowly).
func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } }
}
