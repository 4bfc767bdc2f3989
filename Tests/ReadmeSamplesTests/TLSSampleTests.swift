// README.md, "A taste of the code": the shouter over TLS. Under TestApp its
// clients' handshakes are simulated (no file read: `app.connect(port:tls:)`);
// real handshakes against openssl are TLSTests' and ChatTLSDaemonTests'
// (Tests/ComposeAppTests).
import ComposeTesting
import Testing
import ComposeTLS   // brings ComposeApp; only apps that import it link OpenSSL

struct SecureShouter: Component {
    let listener = TCPServer(port: 7443, tls: .server(
        certificateChain: "/etc/shouter/fullchain.pem",
        privateKey: "/etc/shouter/key.pem"
    ))   // TLS 1.2 and 1.3, forward-secret suites only, a 10 s handshake timeout
    let clients = InstanceComponent<ShoutingClient>()
    var observers: Void {
        listener += { connection in
            clients.add { ShoutingClient(connection: connection) }
        }
        clients.forward(\.connection.didClose) += { id, _ in
            clients.remove(id)
        }
        listener.errors += { error in   // a missing file, a key that is not the certificate's: named
            print("cannot listen: \(error)")
            Application.shutdown(status: 1)
        }
    }
}

@MainActor
@Suite(.serialized) struct TLSSampleTests {
    @Test func theSecureShoutersListenerServesTLSWithTheDefaultsTheCommentNames() throws {
        let tls = try #require(SecureShouter().listener.tlsConfiguration)
        #expect(tls.isServer)
        #expect(tls.certificateChainFile == "/etc/shouter/fullchain.pem")
        #expect(tls.privateKeyFile == "/etc/shouter/key.pem")
        #expect(tls.minimumVersion == .tls12)
        #expect(tls.ciphers == TLSConfiguration.forwardSecretCiphers)
        #expect(tls.handshakeTimeout == .seconds(10))
    }

    /// The TLS article, "Under TestApp".
    @Test func theArticlesTestAppSampleRunsTheShouterWithASimulatedHandshake() throws {
        let app = TestApp(root: SecureShouter())
        let peer = try app.connect(port: 7443, tls: .client(applicationProtocols: ["shout/1"]))
        peer.write("hello\n")
        #expect(peer.readLines() == ["HELLO"])

        // The app as a client: a scripted server whose certificate expired. The
        // app's connect to it fails with tlsVerificationFailed, "the certificate at
        // depth 0 of the chain (the server's own), /CN=localhost, was rejected:
        // certificate has expired", and the server sees the connection closed.
        let api = app.listen(port: 443, tls: .server(certificate: .expired))
        #expect(api.peers.allSatisfy { $0.isClosedByApp })
        #expect(peer.isTLSEstablished)
    }

    @Test func underTestAppItsClientsAreAnsweredInCapitalsAsTheShoutersAre() throws {
        _ = Printed.take()
        let app = TestApp(root: SecureShouter())
        let peer = try app.connect(port: 7443, tls: .client())   // a simulated TLS handshake
        peer.write("hello\n")
        #expect(peer.readLines() == ["HELLO"])
        #expect(peer.receivedCloseNotify == false)
        app.send(.terminate)
        #expect(peer.isClosedByApp)
        #expect(peer.receivedCloseNotify)   // the drain ends the TLS session cleanly
        #expect(app.exitStatus == 0)
        #expect(Printed.take().isEmpty)
    }
}
