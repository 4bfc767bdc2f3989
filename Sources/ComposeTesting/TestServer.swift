internal import ComposeApp

/// A server the test scripts for the app to connect to
/// (``TestApp/listen(port:onAccept:)``): the app's
/// `TCPConnection.connect(host:port:)` to its port is accepted, and the
/// test talks through its end of each connection, a ``TestPeer``.
///
/// ```swift
/// let redis = app.listen(port: 6379)
/// // ... the app connects and writes "PING\r\n"
/// let connection = try #require(redis.peers.last)
/// #expect(connection.readLines() == ["PING"])
/// connection.write("+PONG\r\n")
/// connection.reset()                 // the app's connection fails: connectionReset
/// redis.close()                      // later connects are refused
/// ```
@MainActor
public final class TestServer {
    /// The port it listens on.
    public let port: UInt16
    /// The test's end of each connection accepted, in order.
    public private(set) var peers: [TestPeer] = []
    /// Runs with the test's end of each connection, when it is accepted
    /// (before the app's connect completes).
    public var onAccept: (@MainActor (TestPeer) -> Void)?
    private let server = SimulatedServer()
    private weak var app: TestApp?
    private weak var network: SimulatedNetwork?

    /// What it does in a TLS handshake (``TestApp/listen(port:tls:onAccept:)``);
    /// `nil` for a plain server.
    public let tls: TestTLS?

    init(app: TestApp, network: SimulatedNetwork, port: UInt16, tls: TestTLS?, onAccept: (@MainActor (TestPeer) -> Void)?) {
        self.app = app
        self.network = network
        self.onAccept = onAccept
        self.tls = tls
        server.tls = tls?.simulated
        self.port = network.listen(server, port: port)
        server.onAccept = { [weak self] peer in self?.accepted(peer) }
    }

    /// Whether it accepts connections (until ``close()``, or until another
    /// server of the test takes its port).
    public var isListening: Bool { server.isListening }

    /// Stops accepting: the app's later connects to the port are refused.
    /// Accepted connections stay open.
    public func close() {
        network?.stopListening(server, port: port)
    }

    private func accepted(_ peer: SimulatedPeer) {
        guard let app else { return }
        let testPeer = TestPeer(peer, app: app)
        peers.append(testPeer)
        onAccept?(testPeer)
    }
}
