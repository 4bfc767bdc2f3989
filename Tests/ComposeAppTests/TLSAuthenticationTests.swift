@_spi(Testing) import ComposeApp
import ComposeTLS
import Foundation
import Testing

/// Echoes each line over TLS on a TCP listener, noting every connection
/// and error.
private struct AuthEchoServer: Component {
    let listener: TCPServer
    let clients = InstanceComponent<AuthEchoSession>()
    let log: AuthLog

    init(tcp: TCPServer, log: AuthLog) {
        listener = tcp
        self.log = log
    }

    var observers: Void {
        observeEchoes(listener.emitter, listener.errors, clients, log)
    }
}

/// The same on a Unix socket listener.
private struct AuthUnixEchoServer: Component {
    let listener: UnixServer
    let clients = InstanceComponent<AuthEchoSession>()
    let log: AuthLog

    var observers: Void {
        observeEchoes(listener.emitter, listener.errors, clients, log)
    }
}

@MainActor
private func observeEchoes(_ connections: Emitter<TCPConnection>, _ listenErrors: Emitter<LoopError>, _ clients: InstanceComponent<AuthEchoSession>, _ log: AuthLog) {
    connections += { connection in clients.add { AuthEchoSession(connection: connection, log: log) } }
    listenErrors += { error in log.listenErrors.append(error) }
    clients.forward(\.connection.errors) += { _, error in log.errors.append(error) }
    clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
}

private struct AuthEchoSession: Component {
    let connection: TCPConnection
    let log: AuthLog
    var observers: Void {
        log.accepted.append(Weak(connection))
        connection.lines += { line in
            log.lines.append(line)
            // The session as the handshake settled it, when the first line came.
            if let session = connection.tlsSession { log.sessions.append(session) }
            connection.writeLine(line)
        }
    }
}

@MainActor
private final class AuthLog {
    var lines: [String] = []
    var sessions: [TLSSession] = []
    var errors: [LoopError] = []
    var listenErrors: [LoopError] = []
    var accepted: [Weak<TCPConnection>] = []
}

/// A TLS client of the library over TCP or a Unix socket: its connection
/// or failure, what it received, the errors after its handshake.
@MainActor
private final class AuthClient {
    var connection: TCPConnection?
    var received: [UInt8] = []
    var failure: LoopError?
    var errors: [LoopError] = []

    init(host: String = "localhost", port: UInt16, tls: TLSConfiguration) {
        TCPConnection.connect(host: host, port: port, tls: tls) { [weak self] in self?.connected($0) }
    }

    init(unixPath: String, tls: TLSConfiguration) {
        TCPConnection.connect(unixPath: unixPath, tls: tls) { [weak self] in self?.connected($0) }
    }

    private func connected(_ result: Result<TCPConnection, LoopError>) {
        switch result {
        case .success(let connection):
            self.connection = connection
            connection += { [weak self] chunk in chunk.withUnsafeBytes { self?.received.append(contentsOf: $0) } }
            connection.errors += { [weak self] in self?.errors.append($0) }
            connection.start()
        case .failure(let error):
            failure = error
        }
    }

    var done: Bool { connection != nil || failure != nil }
    var text: String { String(decoding: received, as: UTF8.self) }
}

/// Who may talk to whom over TLS: several certificates chosen by SNI,
/// client certificates (mutual TLS), pinning, expired certificates, TLS
/// on Unix sockets; against `openssl s_client` and the library's client,
/// with certificates from the test authority made at test time.
@MainActor
@Suite(.serialized, .liveLoop) struct TLSAuthenticationTests {
    private func tcpServer(_ configuration: TLSConfiguration, log: AuthLog = AuthLog()) throws -> (ComponentTree, TCPServer, AuthLog) {
        let listener = TCPServer(host: "127.0.0.1", port: 0, tls: configuration)
        let tree = ComponentTree(AuthEchoServer(tcp: listener, log: log))
        tree.activate()
        try #require(listener.isListening, "\(log.listenErrors)")
        return (tree, listener, log)
    }

    private func serverConfiguration(_ certificates: TLSCertificates) -> TLSConfiguration {
        .server(certificateChain: certificates.certificate, privateKey: certificates.key)
    }

    /// `openssl s_client` against `port` (or the Unix socket `unix`),
    /// trusting the test authority, refusing a chain or name that does
    /// not verify, with `arguments` besides.
    private func sClient(port: UInt16? = nil, unix: String? = nil, _ certificates: TLSCertificates, _ arguments: [String]) throws -> FixtureProcess {
        let target = unix.map { ["-unix", $0] } ?? ["-connect", "127.0.0.1:\(port ?? 0)"]
        return try FixtureProcess(executable: TLSCertificates.openssl, arguments: ["s_client"] + target + [
            "-CAfile", certificates.authority, "-verify_return_error", "-quiet", "-no_ign_eof",
        ] + arguments)
    }

    // MARK: SNI

    @Test func theServerPicksItsCertificateByTheNameTheClientAsksForAndTheFirstForAnyOther() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let alpha = try certificates.issue("alpha", commonName: "alpha", alternativeNames: "DNS:alpha.test")
        let beta = try certificates.issue("beta", commonName: "beta", alternativeNames: "DNS:*.beta.test")
        var configuration = serverConfiguration(certificates)
        configuration.addCertificate(certificateChain: alpha.certificate, privateKey: alpha.key)
        configuration.addCertificate(certificateChain: beta.certificate, privateKey: beta.key)
        let (tree, listener, log) = try tcpServer(configuration)
        defer { tree.destroy(); LoopDriver.settle() }
        // s_client verifies the name it expects: a wrong certificate
        // fails its handshake, and no line comes back. All at once, so
        // that the main actor is not held by one after the other.
        let names = [("alpha.test", "alpha.test"), ("www.beta.test", "www.beta.test"), ("unknown.test", "localhost")]
        let clients = try names.map { asked, expected in
            try sClient(port: listener.port, certificates, ["-servername", asked, "-verify_hostname", expected])
        }
        for (client, (asked, _)) in zip(clients, names) { try client.writeStdin("hello \(asked)\n") }
        #expect(LoopDriver.run(until: { zip(clients, names).allSatisfy { $0.output.lines.contains("hello \($1.0)") } }), "\(clients.map(\.transcript))")
        for client in clients { try client.closeStdin() }
        #expect(Set(log.sessions.compactMap(\.serverName)) == ["alpha.test", "www.beta.test", "unknown.test"])
        // The library's client sees which certificate answered.
        let expectations = [("alpha.test", "/CN=alpha"), ("x.beta.test", "/CN=beta"), ("localhost", "/CN=localhost")]
        let ours = expectations.map { name, _ in
            AuthClient(host: "127.0.0.1", port: listener.port, tls: .client(trustRoots: .file(certificates.authority), serverName: name))
        }
        #expect(LoopDriver.run(until: { ours.allSatisfy(\.done) }))
        for (client, (name, subject)) in zip(ours, expectations) {
            #expect(client.failure == nil, "\(String(describing: client.failure))")
            #expect(client.connection?.tlsSession?.peerCertificateSubject == subject)
            #expect(client.connection?.tlsSession?.serverName == name)
            client.connection?.close()
        }
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test func aListenerRestartedBeforeAClientHelloChoosesByTheContextItsConnectionBeganWith() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let alpha = try certificates.issue("alpha", commonName: "alpha", alternativeNames: "DNS:alpha.test")
        var configuration = serverConfiguration(certificates)
        configuration.addCertificate(certificateChain: alpha.certificate, privateKey: alpha.key)
        let (tree, listener, log) = try tcpServer(configuration)
        defer { tree.destroy(); LoopDriver.settle() }
        // Connects, waits for a line, then sends its ClientHello (for
        // alpha.test, so that the SNI callback runs) on that first
        // socket, then on a new one.
        let script = """
        import socket, ssl, sys
        port, cafile = int(sys.argv[1]), sys.argv[2]
        first = socket.create_connection(("127.0.0.1", port))
        print("connected", flush=True)
        sys.stdin.readline()
        def talk(raw, line):
            context = ssl.create_default_context(cafile=cafile)
            with context.wrap_socket(raw, server_hostname="alpha.test") as tls:
                tls.sendall(line + b"\\n")
                received = b""
                while not received.endswith(b"\\n"):
                    received += tls.recv(4096)
                subject = dict(pair[0] for pair in tls.getpeercert()["subject"])["commonName"]
                print(subject, received.decode().strip(), flush=True)
        talk(first, b"first")
        talk(socket.create_connection(("127.0.0.1", port)), b"second")
        print("done", flush=True)
        """
        let python = try FixtureProcess(executable: "/usr/bin/python3", arguments: ["-c", script, "\(listener.port)", certificates.authority])
        #expect(LoopDriver.run(until: { python.output.lines.contains("connected") && log.accepted.count == 1 }), "\(python.transcript)")
        // The first connection's engine now holds the only reference to
        // the first context, whose SNI callback has yet to run.
        listener.stop()
        let renewed = try certificates.issue("alpha", commonName: "alpha renewed", alternativeNames: "DNS:alpha.test")
        #expect(renewed.certificate == alpha.certificate)
        listener.start()
        try #require(listener.isListening, "\(log.listenErrors)")
        LoopDriver.settle()
        try python.writeStdin("go\n")
        #expect(LoopDriver.run(until: { python.output.lines.contains("done") || !python.isRunning }), "\(python.transcript)")
        #expect(python.output.lines.filter { $0 != "connected" && $0 != "done" } == ["alpha first", "alpha renewed second"], "\(python.transcript)")
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    // MARK: Mutual TLS

    @Test func aRequiredClientCertificateIsVerifiedAndItsSubjectAndExpirySeen() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let client = try certificates.issue("client", commonName: "client one", client: true)
        var configuration = serverConfiguration(certificates)
        configuration.clientAuthentication = .require(trustRoots: certificates.authority)
        let (tree, listener, log) = try tcpServer(configuration)
        defer { tree.destroy(); LoopDriver.settle() }
        let opensslClient = try sClient(port: listener.port, certificates, ["-cert", client.certificate, "-key", client.key])
        try opensslClient.writeStdin("with a certificate\n")
        #expect(LoopDriver.run(until: { opensslClient.output.lines.contains("with a certificate") }), "\(opensslClient.transcript)")
        let session = try #require(log.sessions.first)
        #expect(session.peerCertificateSubject == "/CN=client one")
        // Issued for 2 days (-days 2), from now.
        let now = Int(Date().timeIntervalSince1970)
        let notAfter = try #require(session.peerCertificateNotAfter)
        #expect(notAfter > now + 2 * 86_400 - 600 && notAfter < now + 2 * 86_400 + 600, "\(notAfter) vs \(now)")
        try opensslClient.closeStdin()
        // The library's client, TLS 1.3 and 1.2.
        for version in [TLSConfiguration.Version.tls13, .tls12] {
            var tls = TLSConfiguration.client(trustRoots: .file(certificates.authority), certificateChain: client.certificate, privateKey: client.key)
            tls.minimumVersion = version
            let ours = AuthClient(port: listener.port, tls: tls)
            #expect(LoopDriver.run(until: { ours.done }))
            #expect(ours.failure == nil, "\(String(describing: ours.failure))")
            ours.connection?.writeLine("ours \(version)")
            #expect(LoopDriver.run(until: { ours.text.contains("ours \(version)\n") }), "\(ours.errors)")
            #expect(log.sessions.last?.peerCertificateSubject == "/CN=client one")
            ours.connection?.close()
        }
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test(arguments: [TLSConfiguration.Version.tls13, .tls12])
    func aClientWithoutACertificateIsRefusedNamingWhyOnBothSides(version: TLSConfiguration.Version) throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        var configuration = serverConfiguration(certificates)
        configuration.clientAuthentication = .require(trustRoots: certificates.authority)
        configuration.minimumVersion = version
        let (tree, listener, log) = try tcpServer(configuration)
        defer { tree.destroy(); LoopDriver.settle() }
        let client = AuthClient(port: listener.port, tls: .client(trustRoots: .file(certificates.authority)))
        // TLS 1.2: the handshake fails. TLS 1.3: the client's handshake
        // completes before the server reads its (empty) certificate; the
        // server's alert then ends the connection.
        #expect(LoopDriver.run(until: { client.failure != nil || !client.errors.isEmpty }))
        let failure = try #require(client.failure ?? client.errors.first)
        #expect(failure.kind == .tlsHandshakeFailed, "\(failure)")
        #expect(failure.description.contains("the server requires a client certificate, and this client has none"), "\(failure)")
        #expect(LoopDriver.run(until: { !log.errors.isEmpty }))
        let refusal = try #require(log.errors.first)
        #expect(refusal.kind == .tlsVerificationFailed, "\(refusal)")
        #expect(refusal.description.contains("the client sent no certificate, and this server requires one"), "\(refusal)")
        #expect(log.lines.isEmpty)
        // And openssl's client without one.
        let opensslClient = try sClient(port: listener.port, certificates, [version == .tls13 ? "-tls1_3" : "-tls1_2"])
        try? opensslClient.writeStdin("no certificate\n")
        #expect(LoopDriver.run(until: { log.errors.count == 2 }))
        #expect(log.errors.last?.kind == .tlsVerificationFailed, "\(log.errors)")
        #expect(LoopDriver.run(until: { !opensslClient.isRunning }), "\(opensslClient.transcript)")
        #expect(log.lines.isEmpty)
    }

    @Test func aClientCertificateOfAnotherAuthorityIsRefusedNamingIt() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let stranger = try certificates.issue("stranger", commonName: "stranger", client: true, byOtherAuthority: true)
        var configuration = serverConfiguration(certificates)
        configuration.clientAuthentication = .require(trustRoots: certificates.authority)
        let (tree, listener, log) = try tcpServer(configuration)
        defer { tree.destroy(); LoopDriver.settle() }
        let client = AuthClient(port: listener.port, tls: .client(trustRoots: .file(certificates.authority), certificateChain: stranger.certificate, privateKey: stranger.key))
        #expect(LoopDriver.run(until: { client.failure != nil || !client.errors.isEmpty }))
        let failure = try #require(client.failure ?? client.errors.first)
        #expect(failure.kind == .tlsHandshakeFailed, "\(failure)")
        #expect(failure.description.contains("the server refused this client's certificate (\(stranger.certificate))"), "\(failure)")
        #expect(failure.description.contains("unknown ca"), "\(failure)")
        #expect(LoopDriver.run(until: { !log.errors.isEmpty }))
        let refusal = try #require(log.errors.first)
        #expect(refusal.kind == .tlsVerificationFailed, "\(refusal)")
        #expect(refusal.description.contains("depth 0 of the chain (the client's own), /CN=stranger"), "\(refusal)")
        #expect(refusal.description.contains("unable to get local issuer certificate"), "\(refusal)")
    }

    @Test func aRequestedClientCertificateMayBeLeftOut() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let member = try certificates.issue("member", commonName: "member", client: true)
        var configuration = serverConfiguration(certificates)
        configuration.clientAuthentication = .request(trustRoots: certificates.authority)
        let (tree, listener, log) = try tcpServer(configuration)
        defer { tree.destroy(); LoopDriver.settle() }
        let anonymous = try sClient(port: listener.port, certificates, [])
        try anonymous.writeStdin("anonymous\n")
        #expect(LoopDriver.run(until: { anonymous.output.lines.contains("anonymous") }), "\(anonymous.transcript)")
        let known = try sClient(port: listener.port, certificates, ["-cert", member.certificate, "-key", member.key])
        try known.writeStdin("member here\n")
        #expect(LoopDriver.run(until: { known.output.lines.contains("member here") }), "\(known.transcript)")
        #expect(log.sessions.map(\.peerCertificateSubject) == [nil, "/CN=member"])
        #expect(log.sessions.first?.peerCertificateNotAfter == nil)
        #expect(log.errors.isEmpty, "\(log.errors)")
        try anonymous.closeStdin()
        try known.closeStdin()
    }

    // MARK: The client's checks

    @Test func aPinnedKeyIsAcceptedAndAnyOtherRefusedNamingBoth() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, listener, log) = try tcpServer(serverConfiguration(certificates))
        defer { tree.destroy(); LoopDriver.settle() }
        let serverPin = try TLSCertificates.pin(of: certificates.certificate)
        let authorityPin = try TLSCertificates.pin(of: certificates.authority)
        let unrelated = try certificates.issue("unrelated", commonName: "unrelated")
        let unrelatedPin = try TLSCertificates.pin(of: unrelated.certificate)
        // Several pins: one matching is enough; the authority's key (of
        // the verified chain) matches too.
        for pins in [[unrelatedPin, serverPin], ["sha256/\(serverPin)"], [authorityPin]] {
            var tls = TLSConfiguration.client(trustRoots: .file(certificates.authority))
            tls.pinnedPublicKeys = pins
            let client = AuthClient(port: listener.port, tls: tls)
            #expect(LoopDriver.run(until: { client.done }))
            #expect(client.failure == nil, "\(pins): \(String(describing: client.failure))")
            client.connection?.close()
        }
        var tls = TLSConfiguration.client(trustRoots: .file(certificates.authority))
        tls.pinnedPublicKeys = [unrelatedPin]
        let client = AuthClient(port: listener.port, tls: tls)
        #expect(LoopDriver.run(until: { client.done }))
        let failure = try #require(client.failure)
        #expect(failure.kind == .tlsVerificationFailed, "\(failure)")
        #expect(failure.description.contains("depth 0 of the chain (the server's own), /CN=localhost"), "\(failure)")
        #expect(failure.description.contains("its public key sha256/\(serverPin)"), "\(failure)")
        #expect(failure.description.contains("matches none of the pinned keys sha256/\(unrelatedPin)"), "\(failure)")
        // The server hears of it from the client's alert.
        #expect(LoopDriver.run(until: { !log.errors.isEmpty }))
        #expect(log.errors.first?.kind == .tlsHandshakeFailed, "\(log.errors)")
    }

    @Test func anExpiredServerCertificateIsRefusedNamingWhy() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let expired = try certificates.expiredServer()
        let (tree, listener, log) = try tcpServer(.server(certificateChain: expired.certificate, privateKey: expired.key))
        defer { tree.destroy(); LoopDriver.settle() }
        let client = AuthClient(port: listener.port, tls: .client(trustRoots: .file(certificates.authority)))
        #expect(LoopDriver.run(until: { client.done }))
        let failure = try #require(client.failure)
        #expect(failure.kind == .tlsVerificationFailed, "\(failure)")
        #expect(failure.description.contains("depth 0 of the chain (the server's own), /CN=localhost"), "\(failure)")
        #expect(failure.description.contains("certificate has expired"), "\(failure)")
        #expect(LoopDriver.run(until: { !log.errors.isEmpty }))
        #expect(log.errors.first?.description.contains("certificate expired") == true, "\(log.errors)")
    }

    // MARK: Misuse

    @Test func misusedAuthenticationOptionsAreNamedWithWhatWouldBeRight() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let missing = certificates.directory.appendingPathComponent("missing.pem").path
        // A server: an additional certificate that cannot be read, a
        // client authorities' file that is not there, pins.
        var badName = serverConfiguration(certificates)
        badName.addCertificate(certificateChain: missing, privateKey: certificates.key)
        var badAuthorities = serverConfiguration(certificates)
        badAuthorities.clientAuthentication = .require(trustRoots: missing)
        var pinningServer = serverConfiguration(certificates)
        pinningServer.pinnedPublicKeys = [try TLSCertificates.pin(of: certificates.certificate)]
        for (configuration, option, named) in [
            (badName, "SSL_CTX_use_certificate_chain_file", missing),
            (badAuthorities, "TLSConfiguration.clientAuthentication", missing),
            (pinningServer, "TLSConfiguration.pinnedPublicKeys", "a client's"),
        ] {
            let listener = TCPServer(host: "127.0.0.1", port: 0, tls: configuration)
            let tree = ComponentTree(AuthEchoServer(tcp: listener, log: AuthLog()))
            #expect(throws: LoopError.self) { try listener.listen() }
            do {
                try listener.listen()
            } catch {
                #expect(error.kind == .tlsConfigurationInvalid, "\(error)")
                #expect(error.description.contains(option), "\(error)")
                #expect(error.description.contains(named), "\(error)")
            }
            tree.destroy()
        }
        // A client: a malformed pin, server options, a certificate
        // without its key; over a Unix socket, no server name.
        var badPin = TLSConfiguration.client(trustRoots: .file(certificates.authority))
        badPin.pinnedPublicKeys = ["not a pin"]
        var serverOption = TLSConfiguration.client()
        serverOption.clientAuthentication = .require(trustRoots: certificates.authority)
        var sniOnClient = TLSConfiguration.client()
        sniOnClient.addCertificate(certificateChain: certificates.certificate, privateKey: certificates.key)
        var keyless = TLSConfiguration.client()
        keyless.certificateChainFile = certificates.certificate
        for (configuration, option, hint) in [
            (badPin, "pinnedPublicKeys", "\"not a pin\" is not a pin: a pin is the base64 of a SHA-256 digest"),
            (serverOption, "clientAuthentication", "a client always verifies the server's"),
            (sniOnClient, "additionalCertificates", "TLSConfiguration.client(certificateChain:privateKey:)"),
            (keyless, "privateKeyFile", "set privateKeyFile too"),
        ] {
            let client = AuthClient(port: 1, tls: configuration)
            #expect(LoopDriver.run(until: { client.done }))
            let failure = try #require(client.failure)
            #expect(failure.kind == .tlsConfigurationInvalid, "\(failure)")
            #expect(failure.description.contains("TLSConfiguration.\(option)"), "\(failure)")
            #expect(failure.description.contains(hint), "\(failure)")
        }
        let nameless = AuthClient(unixPath: "/nonexistent.sock", tls: .client(trustRoots: .file(certificates.authority)))
        #expect(LoopDriver.run(until: { nameless.done }))
        #expect(nameless.failure?.kind == .tlsConfigurationInvalid)
        #expect(nameless.failure?.description.contains("set TLSConfiguration.serverName") == true, "\(String(describing: nameless.failure))")
    }

    // MARK: Unix sockets

    @Test func aUnixSocketServerSpeaksTLSToOpenSSLAndToTheLibrarysClient() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let path = certificates.directory.appendingPathComponent("tls.sock").path
        let client = try certificates.issue("client", commonName: "local client", client: true)
        var configuration = serverConfiguration(certificates)
        configuration.clientAuthentication = .request(trustRoots: certificates.authority)
        let listener = UnixServer(path: path, tls: configuration)
        let log = AuthLog()
        let tree = ComponentTree(AuthUnixEchoServer(listener: listener, log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        try #require(listener.isListening, "\(log.listenErrors)")
        #expect(listener.tlsConfiguration == configuration)
        let opensslClient = try sClient(unix: path, certificates, ["-verify_hostname", "localhost", "-cert", client.certificate, "-key", client.key])
        try opensslClient.writeStdin("over a socket file\n")
        #expect(LoopDriver.run(until: { opensslClient.output.lines.contains("over a socket file") }), "\(opensslClient.transcript)")
        #expect(log.sessions.first?.peerCertificateSubject == "/CN=local client")
        #expect(log.accepted.first?.value?.isTLS == true)
        try opensslClient.closeStdin()
        let ours = AuthClient(unixPath: path, tls: .client(trustRoots: .file(certificates.authority), serverName: "localhost"))
        #expect(LoopDriver.run(until: { ours.done }))
        #expect(ours.failure == nil, "\(String(describing: ours.failure))")
        let connection = try #require(ours.connection)
        #expect(connection.remoteAddress == "unix:\(path)")
        #expect(connection.tlsSession?.peerCertificateSubject == "/CN=localhost")
        connection.writeLine("ours, locally")
        #expect(LoopDriver.run(until: { ours.text.contains("ours, locally\n") }), "\(ours.errors)")
        // A name the certificate does not hold is refused, as over TCP.
        let wrong = AuthClient(unixPath: path, tls: .client(trustRoots: .file(certificates.authority), serverName: "elsewhere.test"))
        #expect(LoopDriver.run(until: { wrong.done }))
        #expect(wrong.failure?.kind == .tlsVerificationFailed)
        #expect(wrong.failure?.description.contains("hostname mismatch") == true, "\(String(describing: wrong.failure))")
        connection.close()
        #expect(log.errors.filter { $0.kind != .tlsHandshakeFailed }.isEmpty, "\(log.errors)")
    }
}
