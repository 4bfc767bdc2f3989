import ComposeTLS
import ComposeTesting
import Testing

/// TLS apps under `TestApp`: the handshake is simulated (no file read,
/// virtual time), with a real handshake's checks and typed errors.
@MainActor
@Suite struct TestAppTLSTests {
    /// Paths of a production configuration: they need not exist under
    /// `TestApp`.
    static let server = TLSConfiguration.server(certificateChain: "/etc/greeter/cert.pem", privateKey: "/etc/greeter/key.pem", applicationProtocols: ["greet/2", "greet/1"])

    private func greeter(_ configuration: TLSConfiguration = server) throws -> (TestApp, TLSGreeterLog) {
        let log = TLSGreeterLog()
        let app = TestApp(root: TLSGreeter(port: 8443, tls: configuration, log: log))
        let greeter = try #require(app.root(as: TLSGreeter.self))
        try #require(greeter.listener.isListening, "\(log.errors)")
        return (app, log)
    }

    // MARK: The app's server

    @Test func theServerGreetsAfterTheHandshakeAndReportsItsSession() throws {
        let (app, log) = try greeter()
        let peer = try app.connect(port: 8443, tls: .client(applicationProtocols: ["greet/1", "greet/2"]))
        #expect(peer.isTLSEstablished)
        // The server's preference wins.
        #expect(peer.tlsApplicationProtocol == "greet/2")
        #expect(peer.readLines() == ["welcome"])
        peer.write("hello\n")
        #expect(peer.readLines() == ["greet/2 hello"])
        let connection = try #require(log.connections.first)
        #expect(connection.isTLS)
        let session = try #require(connection.tlsSession)
        #expect(session.applicationProtocol == "greet/2")
        #expect(session.serverName == "localhost")
        #expect(session.protocolVersion == "TLSv1.3")
        #expect(session.peerCertificateSubject == nil)
        #expect(log.errors.isEmpty, "\(log.errors)")
        #expect(app.diagnostics.isEmpty, "\(app.diagnostics)")
    }

    @Test func aGracefulCloseSendsCloseNotifyAndThePeersCloseEndsTheConnection() throws {
        let (app, log) = try greeter()
        let peer = try app.connect(port: 8443, tls: .client())
        peer.write("bye\n")
        #expect(peer.readLines() == ["welcome", "- bye"])
        #expect(peer.isClosedByApp)
        #expect(peer.receivedCloseNotify)

        let other = try app.connect(port: 8443, tls: .client())
        let connection = try #require(log.connections.last)
        other.close()
        #expect(!connection.isOpen)
        #expect(other.isClosedByApp)
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test func aClientThatSharesNoApplicationProtocolIsRefused() throws {
        let (app, log) = try greeter()
        let peer = try app.connect(port: 8443, tls: .client(applicationProtocols: ["other/1"]))
        #expect(!peer.isTLSEstablished)
        #expect(peer.isClosedByApp)
        #expect(!peer.receivedCloseNotify)
        #expect(peer.receivedText.isEmpty)
        #expect(log.errors.map(\.kind) == [.tlsHandshakeFailed])
        #expect(log.errors.first?.message == "no application protocol")
    }

    @Test func aPlainClientFailsTheHandshakeWithItsFirstBytes() throws {
        let (app, log) = try greeter()
        let peer = try app.connect(port: 8443)
        #expect(!peer.isClosedByApp)
        peer.write("hello\n")
        #expect(peer.isClosedByApp)
        // The greeting written before the handshake never left.
        #expect(peer.receivedText.isEmpty)
        #expect(log.errors.map(\.kind) == [.tlsHandshakeFailed])
        #expect(log.errors.first?.message.hasPrefix("wrong version number") == true)
    }

    @Test func aSilentClientIsClosedAtTheHandshakeTimeoutOnTheVirtualClock() throws {
        var configuration = Self.server
        configuration.handshakeTimeout = .seconds(5)
        let (app, log) = try greeter(configuration)
        let peer = try app.connect(port: 8443, tls: .silent)
        app.advance(by: .seconds(4))
        #expect(!peer.isClosedByApp)
        #expect(log.errors.isEmpty)
        app.advance(by: .seconds(1))
        #expect(peer.isClosedByApp)
        #expect(log.errors.map(\.kind) == [.timedOut])
        #expect(log.errors.first?.message == "the handshake did not finish within 5.0 seconds: the connection was closed")
    }

    @Test func mutualTLSChecksTheClientsCertificate() throws {
        var configuration = Self.server
        configuration.clientAuthentication = .require(trustRoots: "/etc/greeter/clients-ca.pem")
        let (app, log) = try greeter(configuration)

        let alice = TestCertificate(subject: "/CN=alice", names: ["alice"])
        let peer = try app.connect(port: 8443, tls: .client(certificate: alice))
        #expect(peer.readLines() == ["welcome"])
        #expect(log.connections.last?.tlsSession?.peerCertificateSubject == "/CN=alice")
        #expect(log.connections.last?.tlsSession?.peerCertificateNotAfter == 4_102_444_800)

        let anonymous = try app.connect(port: 8443, tls: .client())
        #expect(anonymous.isClosedByApp)
        let expired = try app.connect(port: 8443, tls: .client(certificate: TestCertificate(subject: "/CN=bob", names: ["bob"], notAfter: .seconds(946_684_800))))
        #expect(expired.isClosedByApp)
        #expect(log.errors.map(\.kind) == [.tlsVerificationFailed, .tlsVerificationFailed])
        #expect(log.errors.first?.message.hasPrefix("the client sent no certificate, and this server requires one") == true)
        #expect(log.errors.last?.message == "the certificate at depth 0 of the chain (the client's own), /CN=bob, was rejected: certificate has expired")
    }

    @Test func theServerReloadsWithoutFilesAndAMisusedConfigurationFailsTheListen() throws {
        let (app, log) = try greeter()
        let greeter = try #require(app.root(as: TLSGreeter.self))
        #expect(app.run { greeter.listener.reloadTLS() })
        app.send(.hangup)
        #expect(app.diagnostics.isEmpty, "\(app.diagnostics)")

        let client = TLSGreeterLog()
        let misused = TestApp(root: TLSGreeter(port: 8443, tls: .client(), log: client))
        #expect(misused.root(as: TLSGreeter.self)?.listener.isListening == false)
        #expect(client.errors.map(\.kind) == [.tlsConfigurationInvalid])
        #expect(log.errors.isEmpty)
    }

    // MARK: The app's client

    private func fetch(_ tls: TestTLS, configure: (inout TLSConfiguration) -> Void = { _ in }) throws -> (TestApp, TestServer, TLSFetcherLog) {
        var configuration = TLSConfiguration.client(trustRoots: .file("/etc/fetcher/ca.pem"), applicationProtocols: ["http/1.1"])
        configure(&configuration)
        let log = TLSFetcherLog()
        let server = Box<TestServer>()
        let app = TestApp(root: TLSFetcher(host: "localhost", port: 443, tls: configuration, log: log)) { app in
            server.value = app.listen(port: 443, tls: tls) { peer in peer.write("hello\n") }
        }
        return (app, try #require(server.value), log)
    }

    @Test func theClientConnectsToAScriptedTLSServer() throws {
        let (_, server, log) = try fetch(.server(applicationProtocols: ["h2", "http/1.1"]))
        let session = try #require(log.session, "\(String(describing: log.failure))")
        #expect(session.applicationProtocol == "http/1.1")
        #expect(session.peerCertificateSubject == "/CN=localhost")
        #expect(session.serverName == "localhost")
        let peer = try #require(server.peers.first)
        #expect(peer.tlsServerName == "localhost")
        #expect(peer.tlsApplicationProtocol == "http/1.1")
        #expect(peer.readLines() == ["GET /"])
        #expect(log.lines == ["hello"])
    }

    @Test(arguments: [
        (TestCertificate.expired, "certificate has expired"),
        (TestCertificate(names: ["other.example"]), "hostname mismatch"),
        (TestCertificate.unknownAuthority, "unable to get local issuer certificate"),
    ])
    func theClientRefusesACertificateNamingWhy(certificate: TestCertificate, reason: String) throws {
        let (_, server, log) = try fetch(.server(certificate: certificate))
        let failure = try #require(log.failure)
        #expect(failure.kind == .tlsVerificationFailed)
        #expect(failure.message == "the certificate at depth 0 of the chain (the server's own), \(certificate.subject), was rejected: \(reason)")
        #expect(failure.context == "localhost:443")
        #expect(log.session == nil)
        #expect(server.peers.first?.isClosedByApp == true)
        #expect(server.peers.first?.receivedCloseNotify == false)
    }

    @Test func theClientRefusesAKeyThatMatchesNoPin() throws {
        let pin = "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        let (_, _, log) = try fetch(.server()) { $0.pinnedPublicKeys = [pin] }
        let failure = try #require(log.failure)
        #expect(failure.kind == .tlsVerificationFailed)
        #expect(failure.message == "the certificate at depth 0 of the chain (the server's own), /CN=localhost, was rejected: its public key \(TestCertificate.defaultPublicKeyPin) matches none of the pinned keys \(pin) (TLSConfiguration.pinnedPublicKeys)")

        let (_, _, pinned) = try fetch(.server()) { $0.pinnedPublicKeys = [pin, TestCertificate.defaultPublicKeyPin] }
        #expect(pinned.session != nil, "\(String(describing: pinned.failure))")
    }

    @Test func theClientsHandshakeTimesOutOnTheVirtualClock() throws {
        let (app, server, log) = try fetch(.silent) { $0.handshakeTimeout = .seconds(3) }
        #expect(server.peers.count == 1)
        app.advance(by: .seconds(2))
        #expect(log.failure == nil && log.session == nil)
        app.advance(by: .seconds(1))
        #expect(log.failure?.kind == .timedOut)
        #expect(log.failure?.message == "the handshake did not finish within 3.0 seconds: the connection was closed")
        #expect(server.peers.first?.isClosedByApp == true)
    }

    @Test func aPlainServerFailsTheClientsHandshake() throws {
        let log = TLSFetcherLog()
        let server = Box<TestServer>()
        _ = TestApp(root: TLSFetcher(host: "127.0.0.1", port: 443, tls: .client(), log: log)) { app in
            server.value = app.listen(port: 443) { peer in peer.write("+OK ready\r\n") }
        }
        #expect(log.failure?.kind == .tlsHandshakeFailed)
        #expect(log.failure?.message.hasPrefix("wrong version number") == true)
        #expect(server.value?.peers.first?.isClosedByApp == true)
    }
}

/// Holds what a `TestApp`'s setup makes.
@MainActor
final class Box<Value> {
    var value: Value?
}
