@_spi(Testing) import ComposeApp
import ComposeFraming
import ComposeTLS
import Foundation
import Testing

/// Echoes each line over TLS (with the connection's line limit).
private struct TLSEchoServer: Component {
    let listener: TCPServer
    let clients = InstanceComponent<TLSEchoSession>()
    let log: TLSLog
    var observers: Void {
        listener += { connection in clients.add { TLSEchoSession(connection: connection, log: log) } }
        listener.errors += { error in log.listenErrors.append(error) }
        clients.forward(\.connection.errors) += { _, error in log.errors.append(error) }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

private struct TLSEchoSession: Component {
    let connection: TCPConnection
    let log: TLSLog
    var observers: Void {
        log.connections.append(connection)
        connection.maximumLineLength = log.lineLimit
        if let greeting = log.greeting { connection.write(greeting) }
        connection.lines += { line in
            log.lines.append(line)
            connection.writeLine(line)
        }
    }
}

@MainActor
private final class TLSLog {
    var lines: [String] = []
    var errors: [LoopError] = []
    var listenErrors: [LoopError] = []
    var connections: [TCPConnection] = []
    var lineLimit: LineLengthLimit = .default
    var greeting: [UInt8]?
}

/// A TLS client of the library, reading everything it receives.
@MainActor
private final class TLSClientProbe {
    var connection: TCPConnection?
    var received: [UInt8] = []
    var failure: LoopError?
    var closed: TCPConnection.CloseReason?

    init(host: String = "localhost", port: UInt16, tls: TLSConfiguration) {
        TCPConnection.connect(host: host, port: port, tls: tls) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let connection):
                self.connection = connection
                connection += { [weak self] chunk in chunk.withUnsafeBytes { self?.received.append(contentsOf: $0) } }
                connection.didClose += { [weak self] in self?.closed = $0 }
                connection.start()
            case .failure(let error):
                failure = error
            }
        }
    }

    var text: String { String(decoding: received, as: UTF8.self) }
}

/// TLS over real sockets on 127.0.0.1: the library's server against
/// `openssl s_client` and Python's `ssl` module, its client against
/// `openssl s_server`, and each against the other; certificates from a
/// test authority made at test time (``TLSCertificates``).
@MainActor
@Suite(.serialized, .liveLoop) struct TLSTests {
    private func echoServer(_ certificates: TLSCertificates, configure: (inout TLSConfiguration) -> Void = { _ in }, log: TLSLog = TLSLog()) throws -> (ComponentTree, TLSEchoServer, TLSLog) {
        var configuration = TLSConfiguration.server(certificateChain: certificates.certificate, privateKey: certificates.key, applicationProtocols: ["echo/1", "other/1"])
        configure(&configuration)
        let tree = ComponentTree(TLSEchoServer(listener: TCPServer(host: "127.0.0.1", port: 0, tls: configuration), log: log))
        tree.activate()
        let server = try #require(tree.root.value(as: TLSEchoServer.self))
        try #require(server.listener.isListening, "\(log.listenErrors)")
        return (tree, server, log)
    }

    @Test func anEchoServerAnswersOpenSSLsClientOverTLS() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try echoServer(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let client = try FixtureProcess(executable: TLSCertificates.openssl, arguments: [
            "s_client", "-connect", "localhost:\(server.listener.port)", "-CAfile", certificates.authority,
            "-verify_return_error", "-verify_hostname", "localhost", "-alpn", "echo/1", "-quiet", "-no_ign_eof",
        ])
        try client.writeStdin("hello over TLS\n")
        #expect(LoopDriver.run(until: { client.output.lines.contains("hello over TLS") }), "\(client.transcript)")
        #expect(log.lines == ["hello over TLS"])
        let connection = try #require(log.connections.first)
        let session = try #require(connection.tlsSession)
        #expect(session.applicationProtocol == "echo/1")
        #expect(session.protocolVersion == "TLSv1.3")
        #expect(connection.isTLS)
        #expect(LoopDriver.socketOptions(of: connection)?.noDelay == true)
        // End of input: s_client ends the session; the server closes.
        try client.closeStdin()
        #expect(LoopDriver.run(until: { !connection.isOpen }))
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test func pythonsSSLModuleSpeaksTLS12AndTLS13WithTheServer() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try echoServer(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let script = """
        import socket, ssl, sys
        port, cafile = int(sys.argv[1]), sys.argv[2]
        for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
            context = ssl.create_default_context(cafile=cafile)
            context.minimum_version = context.maximum_version = version
            context.set_alpn_protocols(["other/1", "echo/1"])
            with socket.create_connection(("127.0.0.1", port)) as raw:
                with context.wrap_socket(raw, server_hostname="localhost") as tls:
                    tls.sendall(b"line one\\nline two\\n")
                    received = b""
                    while received.count(b"\\n") < 2:
                        received += tls.recv(4096)
                    print(tls.version(), tls.selected_alpn_protocol(), tls.cipher()[0], received.decode().replace("\\n", "|"), flush=True)
                    tls.unwrap()
        print("done", flush=True)
        """
        let python = try FixtureProcess(executable: "/usr/bin/python3", arguments: ["-c", script, "\(server.listener.port)", certificates.authority])
        #expect(LoopDriver.run(until: { python.output.lines.contains("done") || !python.isRunning }), "\(python.transcript)")
        let results = python.output.lines.filter { $0.hasPrefix("TLSv") }
        #expect(results.count == 2, "\(python.transcript)")
        // The server's preference ("echo/1" first) wins over the client's.
        #expect(results.first?.hasPrefix("TLSv1.2 echo/1 ECDHE-ECDSA-") == true, "\(results)")
        #expect(results.first?.hasSuffix(" line one|line two|") == true, "\(results)")
        #expect(results.last?.hasPrefix("TLSv1.3 echo/1 TLS_") == true, "\(results)")
        #expect(log.lines == ["line one", "line two", "line one", "line two"])
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test func theClientTalksToOpenSSLsServerAndVerifiesIt() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let server = try FixtureProcess(executable: TLSCertificates.openssl, arguments: [
            "s_server", "-accept", "127.0.0.1:0", "-cert", certificates.certificate, "-key", certificates.key, "-naccept", "1", "-alpn", "echo/1",
        ])
        #expect(LoopDriver.run(until: { server.output.lines.contains { $0.hasPrefix("ACCEPT ") } }), "\(server.transcript)")
        let accept = try #require(server.output.lines.first { $0.hasPrefix("ACCEPT ") })
        let port = try #require(accept.split(separator: ":").last.flatMap { UInt16($0) })
        let client = TLSClientProbe(port: port, tls: .client(trustRoots: .file(certificates.authority), applicationProtocols: ["echo/1"]))
        #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
        #expect(client.failure == nil, "\(String(describing: client.failure))")
        let connection = try #require(client.connection)
        #expect(connection.tlsSession?.applicationProtocol == "echo/1")
        #expect(connection.tlsSession?.peerCertificateSubject == "/CN=localhost")
        connection.writeLine("ping from the library")
        #expect(LoopDriver.run(until: { server.output.lines.contains("ping from the library") }), "\(server.transcript)")
        try server.writeStdin("pong from s_server\n")
        #expect(LoopDriver.run(until: { client.text.contains("pong from s_server\n") }))
        connection.close()
        #expect(LoopDriver.run(until: { client.closed != nil }))
        #expect(client.closed == .local)
        server.signal(SIGTERM)
    }

    @Test func aServerNameTheCertificateDoesNotHoldIsRefusedNamingWhy() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try echoServer(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let client = TLSClientProbe(host: "127.0.0.1", port: server.listener.port, tls: .client(trustRoots: .file(certificates.authority), serverName: "wrong.example.com"))
        #expect(LoopDriver.run(until: { client.failure != nil || client.connection != nil }))
        let failure = try #require(client.failure)
        #expect(failure.kind == .tlsVerificationFailed)
        #expect(failure.description.contains("depth 0"), "\(failure)")
        #expect(failure.description.contains("/CN=localhost"), "\(failure)")
        #expect(failure.description.contains("hostname mismatch"), "\(failure)")
        // The server hears of it from the client's alert.
        #expect(LoopDriver.run(until: { !log.errors.isEmpty }))
        #expect(log.errors.first?.kind == .tlsHandshakeFailed, "\(log.errors)")
    }

    @Test func aServerSignedByAnAuthorityTheSystemDoesNotTrustIsRefused() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try echoServer(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        // The default: the system's trust store, which has never heard of
        // the test authority.
        let client = TLSClientProbe(port: server.listener.port, tls: .client())
        #expect(LoopDriver.run(until: { client.failure != nil || client.connection != nil }))
        let failure = try #require(client.failure)
        #expect(failure.kind == .tlsVerificationFailed)
        #expect(failure.description.contains("unable to get local issuer certificate"), "\(failure)")
        #expect(LoopDriver.run(until: { !log.errors.isEmpty }))
        #expect(log.errors.first?.kind == .tlsHandshakeFailed)
        #expect(log.errors.first?.description.contains("unknown ca") == true, "\(log.errors)")
    }

    @Test func linesOverTLSKeepTheirLimit() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let log = TLSLog()
        log.lineLimit = .bytes(100)
        let (tree, server, _) = try echoServer(certificates, log: log)
        defer { tree.destroy(); LoopDriver.settle() }
        let client = TLSClientProbe(port: server.listener.port, tls: .client(trustRoots: .file(certificates.authority)))
        #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
        let connection = try #require(client.connection)
        connection.write((1...300).map { "line \($0)\n" }.joined())
        #expect(LoopDriver.run(until: { log.lines.count == 300 }))
        #expect(LoopDriver.run(until: { client.text.hasSuffix("line 300\n") }))
        connection.writeLine(String(repeating: "x", count: 500))
        #expect(LoopDriver.run(until: { client.closed != nil }))
        #expect(log.errors.map(\.kind) == [.lineTooLong], "\(log.errors)")
        #expect(log.lines.count == 300)
    }

    @Test func aLargeWriteArrivesWholeThroughTheQueue() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let log = TLSLog()
        // 8 MiB, more than the kernel's buffers and the high water mark,
        // and past the default soft limit (judged, not cut: the peer reads).
        let payload = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        log.greeting = payload
        let (tree, server, _) = try echoServer(certificates, log: log)
        defer { tree.destroy(); LoopDriver.settle() }
        let client = TLSClientProbe(port: server.listener.port, tls: .client(trustRoots: .file(certificates.authority)))
        #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
        #expect(LoopDriver.run(until: { client.received.count >= payload.count }, timeout: .seconds(60)))
        #expect(client.received == payload)
        let connection = try #require(log.connections.first)
        #expect(connection.peakQueuedBytes >= 4 << 20, "the write waited in the queue")
        #expect(LoopDriver.run(until: { connection.queuedBytes == 0 }))
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test func aClientThatNeverFinishesTheHandshakeIsClosedAtTheTimeout() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        // Real time: the handshake's deadline is on the live app's clock,
        // and the peer is a real socket that sends nothing.
        let (tree, server, log) = try echoServer(certificates) { $0.handshakeTimeout = .milliseconds(300) }
        defer { tree.destroy(); LoopDriver.settle() }
        let silent = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { silent.connection != nil && log.connections.count == 1 }))
        let started = ContinuousClock.now
        #expect(LoopDriver.run(until: { silent.closed != nil }))
        #expect(ContinuousClock.now - started >= .milliseconds(250))
        #expect(log.errors.map(\.kind) == [.timedOut], "\(log.errors)")
        #expect(log.errors.first?.operation == "TLS handshake")
    }

    @Test func manyTLSConnectionsComeAndGoLeavingNothingBehind() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try echoServer(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let handlesBefore = LoopDriver.openHandleCount
        var released: [Weak<TCPConnection>] = []
        // In waves of 10, half of them refused by the verification (the
        // system's trust), so engines are freed while others verify.
        for wave in 0..<10 {
            var clients = (0..<10).map { index in
                TLSClientProbe(port: server.listener.port, tls: index % 2 == 0 ? .client(trustRoots: .file(certificates.authority)) : .client())
            }
            #expect(LoopDriver.run(until: { clients.allSatisfy { $0.connection != nil || $0.failure != nil } }))
            for client in clients {
                if let connection = client.connection {
                    connection.writeLine("wave \(wave)")
                    released.append(Weak(connection))
                }
            }
            #expect(LoopDriver.run(until: { log.lines.count == (wave + 1) * 5 }))
            for client in clients { client.connection?.close() }
            #expect(LoopDriver.run(until: { clients.allSatisfy { $0.connection == nil || $0.closed != nil } }))
            clients = []
            LoopDriver.settle()
            // (Not inside LoopDriver.run, whose guard timer is a handle.)
            #expect(LoopDriver.openHandleCount == handlesBefore, "wave \(wave)")
        }
        #expect(LoopDriver.run(until: { log.connections.allSatisfy { !$0.isOpen } }))
        log.connections = []
        LoopDriver.settle()
        #expect(released.allSatisfy { $0.value == nil })
        #expect(log.errors.filter { $0.kind != .tlsHandshakeFailed }.isEmpty, "\(log.errors)")
    }

    @Test func aClientsRenegotiationIsRefused() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try echoServer(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        // TLS 1.2 (1.3 has no renegotiation); not -quiet, so that a line
        // "R" asks s_client to renegotiate.
        let client = try FixtureProcess(executable: TLSCertificates.openssl, arguments: [
            "s_client", "-connect", "127.0.0.1:\(server.listener.port)", "-CAfile", certificates.authority, "-tls1_2",
        ])
        try client.writeStdin("before\n")
        #expect(LoopDriver.run(until: { client.output.lines.contains("before") }), "\(client.transcript)")
        let handshakes = client.errors.lines.filter { $0.hasPrefix("depth=0") }.count
        try client.writeStdin("R\n")
        #expect(LoopDriver.run(until: { client.errors.lines.contains("RENEGOTIATING") }), "\(client.transcript)")
        // The server refuses (no_renegotiation): either s_client gives up
        // (its standard input may be closed already: no `try`), or the
        // session goes on as it was. It never verifies again.
        try? client.writeStdin("after\n")
        #expect(LoopDriver.run(until: { client.output.lines.contains("after") || !client.isRunning }), "\(client.transcript)")
        #expect(client.errors.lines.filter { $0.hasPrefix("depth=0") }.count == handshakes, "\(client.transcript)")
        #expect(log.lines.first == "before")
        client.signal(SIGTERM)
    }

    @Test func framesOverTLSAreDecodedAsOverAPlainSocket() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try echoServer(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let client = TLSClientProbe(port: server.listener.port, tls: .client(trustRoots: .file(certificates.authority)))
        #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
        let connection = try #require(client.connection)
        var frames: [String] = []
        connection.frames(using: LengthPrefixedDecoder(maximumLength: 64)) += { frame in frames.append(String(buffer: frame)) }
        // The server echoes lines; its echo of these lines is, to the
        // client, length-prefixed frames: 4-byte big-endian length, text.
        let texts = (1...200).map { "frame \($0)" }
        let lines = texts.map { text -> String in
            let length = text.utf8.count + 1
            let prefix = [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
            return String(decoding: prefix, as: UTF8.self) + text
        }
        connection.write(lines.map { $0 + "\n" }.joined())
        #expect(LoopDriver.run(until: { frames.count == texts.count }))
        #expect(frames == texts.map { $0 + "\n" })
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test func aServerWithAMissingKeyFailsToListenNamingTheFile() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let server = TCPServer(port: 0, tls: .server(certificateChain: certificates.certificate, privateKey: certificates.directory.appendingPathComponent("missing.key").path))
        #expect(throws: LoopError.self) { try server.listen() }
        do {
            try server.listen()
        } catch {
            #expect(error.kind == .tlsConfigurationInvalid)
            #expect(error.description.contains("missing.key"), "\(error)")
        }
        #expect(!server.isListening)
    }
}
