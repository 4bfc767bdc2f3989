@_spi(Testing) import ComposeApp
import ComposeTLS
import ComposeTesting
import Testing

/// The component of TestAppTLSTests (``TLSGreeter``), unchanged, on a real
/// socket with real certificates (``TLSCertificates``): what passes under
/// `TestApp`'s simulated TLS passes over OpenSSL.
@MainActor
@Suite(.serialized, .liveLoop) struct TLSGreeterLiveTests {
    @Test func theGreeterPassesUnderTestAppAndOnARealSocket() throws {
        // Under TestApp: no files.
        let simulated = TLSGreeterLog()
        let app = TestApp(root: TLSGreeter(port: 8443, tls: TestAppTLSTests.server, log: simulated))
        let peer = try app.connect(port: 8443, tls: .client(applicationProtocols: ["greet/1"]))
        peer.write("hello\nbye\n")
        #expect(peer.readLines() == ["welcome", "greet/1 hello", "greet/1 bye"])
        #expect(peer.receivedCloseNotify)
        #expect(simulated.connections.first?.tlsSession?.applicationProtocol == "greet/1")
        #expect(simulated.errors.isEmpty, "\(simulated.errors)")

        // On a real socket: the same component, the production
        // configuration with real files.
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let log = TLSGreeterLog()
        let tree = ComponentTree(TLSGreeter(port: 0, tls: .server(certificateChain: certificates.certificate, privateKey: certificates.key, applicationProtocols: ["greet/2", "greet/1"]), log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let greeter = try #require(tree.root.value(as: TLSGreeter.self))
        try #require(greeter.listener.isListening, "\(log.errors)")
        var client: TCPConnection?
        var failure: LoopError?
        var received: [String] = []
        var closed = false
        TCPConnection.connect(host: "localhost", port: greeter.listener.port, tls: .client(trustRoots: .file(certificates.authority), applicationProtocols: ["greet/1"])) { result in
            switch result {
            case .success(let connection):
                client = connection
                connection.lines += { received.append($0) }
                connection.didClose += { _ in closed = true }
                connection.start()
                connection.write("hello\nbye\n")
            case .failure(let error):
                failure = error
            }
        }
        #expect(LoopDriver.run(until: { closed || failure != nil }), "\(received)")
        #expect(failure == nil, "\(String(describing: failure))")
        #expect(received == ["welcome", "greet/1 hello", "greet/1 bye"])
        #expect(client?.tlsSession?.applicationProtocol == "greet/1")
        #expect(log.connections.first?.tlsSession?.applicationProtocol == "greet/1")
        #expect(log.errors.isEmpty, "\(log.errors)")
    }
}
