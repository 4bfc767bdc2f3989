@_spi(Testing) import ComposeApp
import ComposeTLS
import Foundation
import Testing

/// A TLS echo server whose sessions are released from inside their own
/// observers: an error (a failed handshake, a protocol error) closes the
/// connection and removes its component from the errors observer, and a
/// line "bye" does so from the lines observer, in the middle of a
/// delivery.
private struct ReleasingTLSServer: Component {
    let listener: TCPServer
    let sessions = InstanceComponent<ReleasingTLSSession>()
    let log: ReleaseLog
    var observers: Void {
        listener += { connection in
            log.accepted.append(Weak(connection))
            sessions.add { ReleasingTLSSession(connection: connection, log: log) }
        }
        listener.errors += { error in log.listenErrors.append(error) }
        sessions.forward(\.connection.errors) += { id, error in
            log.errors.append(error)
            sessions[id]?.connection.close()
            sessions.remove(id)
        }
        sessions.forward(\.leaving) += { id, _ in
            sessions[id]?.connection.close()
            sessions.remove(id)
        }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
    }
}

private struct ReleasingTLSSession: Component {
    let connection: TCPConnection
    let log: ReleaseLog
    let leaving = Emitter<Void>()
    var observers: Void {
        if let greeting = log.greeting { connection.write(greeting) }
        connection.lines += { line in
            log.lines.append(line)
            if line == "bye" {
                leaving.send(())
            } else {
                connection.writeLine(line)
            }
        }
    }
}

@MainActor
private final class ReleaseLog {
    var accepted: [Weak<TCPConnection>] = []
    var lines: [String] = []
    var errors: [LoopError] = []
    var listenErrors: [LoopError] = []
    var greeting: [UInt8]?

    /// Whether every accepted connection is gone but the last, which the
    /// listener keeps (its emitter's last value) until the next one or
    /// its end, closed.
    func allReleased(but listener: TCPServer) -> Bool {
        accepted.allSatisfy { $0.value == nil || ($0.value === listener.emitter.lastValue && $0.value?.isOpen == false) }
    }
}

/// A TLS client of the library that can release its connection from the
/// observer of its first chunk, and does from the observer of its errors.
@MainActor
private final class ReleasingTLSClient {
    var connection: TCPConnection?
    var released: Weak<TCPConnection>?
    var received: [UInt8] = []
    var failure: LoopError?
    var errors: [LoopError] = []
    var closed: TCPConnection.CloseReason?

    init(host: String = "localhost", port: UInt16, tls: TLSConfiguration, releasingOnFirstChunk: Bool = false) {
        TCPConnection.connect(host: host, port: port, tls: tls) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let connection):
                self.connection = connection
                released = Weak(connection)
                connection += { [weak self] chunk in
                    guard let self else { return }
                    chunk.withUnsafeBytes { received.append(contentsOf: $0) }
                    if releasingOnFirstChunk { release() }
                }
                connection.errors += { [weak self] error in
                    self?.errors.append(error)
                    self?.release()
                }
                connection.didClose += { [weak self] in self?.closed = $0 }
                connection.start()
            case .failure(let error):
                failure = error
            }
        }
    }

    /// Closes the connection and lets it go (its last reference).
    func release() {
        connection?.close()
        connection = nil
    }

    var isDone: Bool { failure != nil || released.map { $0.value == nil } == true || closed != nil }
    var text: String { String(decoding: received, as: UTF8.self) }
}

/// TLS connections whose engines and contexts go while TLS is under way:
/// released from their own observers (during a handshake, in the middle of
/// a delivery, on a protocol error), a listener restarted or destroyed
/// with handshakes in flight, contexts that fail at each step. Run under
/// AddressSanitizer (`make test-asan`), they check the proofs of
/// ComposeTLS's unsafe code (docs/unsafe.md): an engine, its `SSL`, its
/// context and the ALPN list the `SSL_CTX`'s callback reads are freed
/// once, after their last use.
@MainActor
@Suite(.serialized, .liveLoop) struct TLSLifetimeTests {
    private func server(_ certificates: TLSCertificates, log: ReleaseLog = ReleaseLog(), configure: (inout TLSConfiguration) -> Void = { _ in }) throws -> (ComponentTree, ReleasingTLSServer, ReleaseLog) {
        var configuration = TLSConfiguration.server(certificateChain: certificates.certificate, privateKey: certificates.key, applicationProtocols: ["echo/1", "other/1"])
        configure(&configuration)
        let tree = ComponentTree(ReleasingTLSServer(listener: TCPServer(host: "127.0.0.1", port: 0, tls: configuration), log: log))
        tree.activate()
        let server = try #require(tree.root.value(as: ReleasingTLSServer.self))
        try #require(server.listener.isListening, "\(log.listenErrors)")
        return (tree, server, log)
    }

    /// The context a connection's handshake began with stays (its engine
    /// holds it, and the ALPN list its callback reads) after the listener
    /// restarted with a new one, which the next connection gets.
    @Test func aListenerRestartedDuringAHandshakeFinishesItWithTheContextItBeganWith() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try server(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        // Connects, waits for a line, then runs its handshake (offering
        // ALPN, so that the server's selection callback runs then) on that
        // first socket, then on a new one.
        let script = """
        import socket, ssl, sys
        port, cafile = int(sys.argv[1]), sys.argv[2]
        first = socket.create_connection(("127.0.0.1", port))
        print("connected", flush=True)
        sys.stdin.readline()
        def talk(raw, line):
            context = ssl.create_default_context(cafile=cafile)
            context.set_alpn_protocols(["other/1"])
            with context.wrap_socket(raw, server_hostname="localhost") as tls:
                tls.sendall(line + b"\\n")
                received = b""
                while not received.endswith(b"\\n"):
                    received += tls.recv(4096)
                subject = dict(pair[0] for pair in tls.getpeercert()["subject"])["commonName"]
                print(subject, tls.selected_alpn_protocol(), received.decode().strip(), flush=True)
        talk(first, b"first")
        talk(socket.create_connection(("127.0.0.1", port)), b"second")
        print("done", flush=True)
        """
        let python = try FixtureProcess(executable: "/usr/bin/python3", arguments: ["-c", script, "\(server.listener.port)", certificates.authority])
        #expect(LoopDriver.run(until: { python.output.lines.contains("connected") && log.accepted.count == 1 }), "\(python.transcript)")
        // The first connection's engine now holds the only reference to
        // the first context.
        server.listener.stop()
        try certificates.reissue(commonName: "localhost (renewed)")
        server.listener.start()
        try #require(server.listener.isListening, "\(log.listenErrors)")
        LoopDriver.settle()
        try python.writeStdin("go\n")
        #expect(LoopDriver.run(until: { python.output.lines.contains("done") || !python.isRunning }), "\(python.transcript)")
        #expect(python.output.lines.filter { $0 != "connected" && $0 != "done" } == [
            "localhost other/1 first",
            "localhost (renewed) other/1 second",
        ], "\(python.transcript)")
        #expect(log.errors.isEmpty, "\(log.errors)")
        #expect(LoopDriver.run(until: { log.allReleased(but: server.listener) }))
    }

    /// Each way a server's connection fails, closed and released from its
    /// own errors observer, and one released from its lines observer with
    /// more lines in the same record.
    @Test func serverConnectionsReleasedFromTheirOwnObserversLeaveNothingBehind() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try server(certificates) { $0.handshakeTimeout = .milliseconds(500) }
        defer { tree.destroy(); LoopDriver.settle() }
        let port = server.listener.port
        let handlesBefore = LoopDriver.openHandleCount
        // The client refuses the certificate (the system's trust): its
        // alert fails the server's handshake.
        var refusing: ReleasingTLSClient? = ReleasingTLSClient(port: port, tls: .client())
        // Plain text instead of a ClientHello.
        var plain: ClientProbe? = ClientProbe(port: port)
        // Gone in the middle of the handshake.
        var leaving: ClientProbe? = ClientProbe(port: port)
        // Never starts it: the deadline.
        var silent: ClientProbe? = ClientProbe(port: port)
        #expect(LoopDriver.run(until: { plain?.connection != nil && leaving?.connection != nil && silent?.connection != nil }))
        plain?.connection?.write("GET / HTTP/1.0\r\n\r\n")
        leaving?.connection?.close()
        // After its handshake, a record that is not TLS (raw bytes on the
        // socket): a protocol error in the middle of a read.
        let script = """
        import socket, ssl, sys
        port, cafile = int(sys.argv[1]), sys.argv[2]
        context = ssl.create_default_context(cafile=cafile)
        tls = context.wrap_socket(socket.create_connection(("127.0.0.1", port)), server_hostname="localhost")
        tls.sendall(b"hello\\n")
        received = b""
        while not received.endswith(b"\\n"):
            received += tls.recv(4096)
        print("echo", received.decode().strip(), flush=True)
        socket.socket.sendall(tls, b"\\x17\\x03\\x03\\x00\\x20" + b"x" * 32)
        try:
            while tls.recv(4096):
                pass
            print("closed", flush=True)
        except Exception as error:
            print("closed", type(error).__name__, flush=True)
        """
        let python = try FixtureProcess(executable: "/usr/bin/python3", arguments: ["-c", script, "\(port)", certificates.authority])
        // "bye" in the middle of a record: released while lines after it
        // wait in the same delivery.
        var bye: ReleasingTLSClient? = ReleasingTLSClient(port: port, tls: .client(trustRoots: .file(certificates.authority)))
        #expect(LoopDriver.run(until: { bye?.connection != nil || bye?.failure != nil }))
        bye?.connection?.write("one\nbye\nafter bye\n")
        #expect(LoopDriver.run(until: { bye?.isDone == true && refusing?.isDone == true && log.errors.count >= 5 && !python.isRunning }), "\(log.errors) \(python.transcript)")
        #expect(python.output.lines.first == "echo hello", "\(python.transcript)")
        #expect(python.output.lines.last?.hasPrefix("closed") == true, "\(python.transcript)")
        let kinds = log.errors.map(\.kind)
        #expect(kinds.filter { $0 == .tlsHandshakeFailed }.count == 3, "\(log.errors)")
        #expect(kinds.filter { $0 == .timedOut }.count == 1, "\(log.errors)")
        #expect(kinds.filter { $0 == .tlsProtocolError }.count == 1, "\(log.errors)")
        #expect(log.lines.contains("bye") && !log.lines.contains("after bye"), "\(log.lines)")
        #expect(refusing?.failure?.kind == .tlsVerificationFailed)
        #expect(LoopDriver.run(until: { log.accepted.count == 6 && log.allReleased(but: server.listener) }))
        refusing = nil
        plain = nil
        leaving = nil
        silent = nil
        bye = nil
        LoopDriver.settle()
        #expect(LoopDriver.openHandleCount == handlesBefore)
    }

    /// A client released from the observer of its first chunk while more
    /// of a large greeting waits decoded in the engine.
    @Test func aClientReleasedFromItsFirstChunksObserverLeavesNothingBehind() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let log = ReleaseLog()
        log.greeting = [UInt8](repeating: 0x2A, count: 1 << 20)
        let (tree, server, _) = try server(certificates, log: log)
        defer { tree.destroy(); LoopDriver.settle() }
        let handlesBefore = LoopDriver.openHandleCount
        var clients: [ReleasingTLSClient] = (0..<5).map { _ in
            ReleasingTLSClient(port: server.listener.port, tls: .client(trustRoots: .file(certificates.authority)), releasingOnFirstChunk: true)
        }
        #expect(LoopDriver.run(until: { clients.allSatisfy(\.isDone) }))
        #expect(clients.allSatisfy { $0.failure == nil && !$0.received.isEmpty && $0.received.count < 1 << 20 })
        #expect(LoopDriver.run(until: { log.accepted.count == 5 && log.allReleased(but: server.listener) }))
        clients = []
        LoopDriver.settle()
        #expect(LoopDriver.openHandleCount == handlesBefore)
    }

    /// Against `openssl s_server`: a TLS 1.3 key update the server asks
    /// the client to return (the client's answer leaves through the
    /// output), then plain text where a record should be: a protocol error,
    /// on which the client's errors observer releases its connection.
    @Test func theClientAnswersAKeyUpdateAndIsReleasedOnAProtocolError() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        // Line-buffered, so that its report of the key update comes at once.
        let server = try FixtureProcess(executable: "/usr/bin/stdbuf", arguments: [
            "-oL", TLSCertificates.openssl,
            "s_server", "-accept", "127.0.0.1:0", "-cert", certificates.certificate, "-key", certificates.key, "-naccept", "1", "-tls1_3",
        ])
        defer { server.signal(SIGTERM) }
        #expect(LoopDriver.run(until: { server.output.lines.contains { $0.hasPrefix("ACCEPT") } }), "\(server.transcript)")
        let port = try #require(server.output.lines.first { $0.hasPrefix("ACCEPT") }?.split(separator: ":").last.flatMap { UInt16($0) })
        let client = ReleasingTLSClient(port: port, tls: .client(trustRoots: .file(certificates.authority)))
        #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
        #expect(client.failure == nil, "\(String(describing: client.failure))")
        // "K": a KeyUpdate that asks the client to update its keys too.
        try server.writeStdin("K\n")
        // (A line written with it in one read would be taken as the command.)
        #expect(LoopDriver.run(until: { server.output.lines.contains("SSL_do_handshake -> 1") }), "\(server.transcript)")
        try server.writeStdin("after the key update\n")
        #expect(LoopDriver.run(until: { client.text.contains("after the key update\n") }), "\(server.transcript)")
        client.connection?.writeLine("the client after the key update")
        #expect(LoopDriver.run(until: { server.output.lines.contains("the client after the key update") }), "\(server.transcript)")
        // "P": plain text on the socket, not a record.
        try server.writeStdin("P\n")
        #expect(LoopDriver.run(until: { client.released?.value == nil }), "\(server.transcript)")
        #expect(client.errors.map(\.kind) == [.tlsProtocolError], "\(client.errors)")
        #expect(client.errors.first?.operation == "SSL_read", "\(client.errors)")
    }

    /// A TLS 1.2 server that asks the client to renegotiate: the client
    /// refuses (no_renegotiation), never verifies again, and OpenSSL's
    /// server then ends the connection with a fatal alert, which the
    /// client reports.
    @Test func theClientRefusesAServersRenegotiation() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let server = try FixtureProcess(executable: TLSCertificates.openssl, arguments: [
            "s_server", "-accept", "127.0.0.1:0", "-cert", certificates.certificate, "-key", certificates.key, "-naccept", "1", "-tls1_2",
        ])
        defer { server.signal(SIGTERM) }
        #expect(LoopDriver.run(until: { server.output.lines.contains { $0.hasPrefix("ACCEPT") } }), "\(server.transcript)")
        let port = try #require(server.output.lines.first { $0.hasPrefix("ACCEPT") }?.split(separator: ":").last.flatMap { UInt16($0) })
        let client = ReleasingTLSClient(port: port, tls: .client(trustRoots: .file(certificates.authority)))
        #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
        #expect(client.connection?.tlsSession?.protocolVersion == "TLSv1.2")
        try server.writeStdin("before\n")
        #expect(LoopDriver.run(until: { client.text.contains("before\n") }), "\(server.transcript)")
        // "r": a HelloRequest.
        try server.writeStdin("r\n")
        #expect(LoopDriver.run(until: { client.released?.value == nil }), "\(server.transcript)")
        #expect(client.errors.map(\.kind) == [.tlsProtocolError], "\(client.errors)")
        #expect(client.errors.first?.description.contains("handshake failure") == true, "\(client.errors)")
    }

    /// A server's component destroyed while handshakes are under way
    /// (clients that sent nothing yet, clients in the middle of theirs).
    @Test func aServerDestroyedWithHandshakesInFlightLeavesNothingBehind() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let handlesBefore = LoopDriver.openHandleCount
        // Nothing but the tree holds the server's component (and its
        // listener, which keeps its last connection).
        var tree: ComponentTree?
        let log = ReleaseLog()
        let port = try {
            let (made, server, _) = try server(certificates, log: log)
            tree = made
            return server.listener.port
        }()
        var silent: [ClientProbe] = (0..<3).map { _ in ClientProbe(port: port) }
        var clients: [ReleasingTLSClient] = (0..<3).map { _ in ReleasingTLSClient(port: port, tls: .client(trustRoots: .file(certificates.authority))) }
        #expect(LoopDriver.run(until: { log.accepted.count == 6 }))
        tree?.destroy()
        tree = nil
        #expect(LoopDriver.run(until: { clients.allSatisfy(\.isDone) && silent.allSatisfy { $0.closed != nil } }))
        #expect(LoopDriver.run(until: { log.accepted.allSatisfy { $0.value == nil } }))
        silent = []
        clients = []
        LoopDriver.settle()
        #expect(LoopDriver.openHandleCount == handlesBefore)
    }

    /// A context fails at each of its steps after the `SSL_CTX` is made:
    /// the error names the file or setting (and the context is freed once:
    /// ASan, valgrind).
    @Test func aContextFailingAtAnyStepNamesWhy() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let garbage = try certificates.garbageFile()
        let unrelated = try certificates.unrelatedKey()
        var unknownCiphers = TLSConfiguration.server(certificateChain: certificates.certificate, privateKey: certificates.key)
        unknownCiphers.ciphers = "NO-SUCH-CIPHER"
        let servers: [(TLSConfiguration, String)] = [
            (unknownCiphers, "NO-SUCH-CIPHER"),
            (.server(certificateChain: garbage, privateKey: certificates.key), garbage),
            (.server(certificateChain: certificates.certificate, privateKey: garbage), garbage),
            (.server(certificateChain: certificates.certificate, privateKey: unrelated), "mismatch"),
        ]
        for (configuration, named) in servers {
            let server = TCPServer(port: 0, tls: configuration)
            do {
                try server.listen()
                Issue.record("listened with \(configuration)")
            } catch {
                #expect(error.kind == .tlsConfigurationInvalid)
                #expect(error.description.contains(named), "\(error)")
            }
            #expect(!server.isListening)
        }
        let missing = certificates.directory.appendingPathComponent("missing.pem").path
        for trust in [missing, garbage] {
            var failure: LoopError?
            TCPConnection.connect(host: "127.0.0.1", port: 9, tls: .client(trustRoots: .file(trust))) { result in
                if case .failure(let error) = result { failure = error }
            }
            #expect(LoopDriver.run(until: { failure != nil }))
            #expect(failure?.kind == .tlsConfigurationInvalid, "\(String(describing: failure))")
            #expect(failure?.description.contains(trust) == true, "\(String(describing: failure))")
        }
    }
}
