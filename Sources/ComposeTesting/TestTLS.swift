internal import ComposeApp

/// What the test's side of a simulated connection does in a TLS
/// handshake: a client of the app's TLS `TCPServer`
/// (``TestApp/connect(port:tls:)``), or a scripted TLS server the app's
/// `TCPConnection.connect(host:port:tls:)` reaches
/// (``TestApp/listen(port:tls:onAccept:)``).
///
/// TLS is simulated in a test context, not run: the handshake is one step
/// of the virtual clock in which the app's `TLSConfiguration` judges what
/// this side presents, with the checks of a real handshake (ALPN, the
/// certificate's authority, expiry, names and pin, a client certificate
/// when the server requires one) and the same typed errors; then the bytes
/// flow in the clear. No PEM file is read and no key is needed, so the
/// app's code runs unchanged with the paths of its production
/// configuration.
///
/// ```swift
/// // The app's TLS server, and a client that speaks ALPN:
/// let peer = try app.connect(port: 8443, tls: .client(applicationProtocols: ["h2"]))
/// #expect(peer.tlsApplicationProtocol == "h2")
///
/// // A scripted server whose certificate expired: the app's connect fails
/// // with tlsVerificationFailed ("certificate has expired").
/// app.listen(port: 443, tls: .server(certificate: .expired))
///
/// // A server that never answers: the app's handshake times out.
/// app.listen(port: 443, tls: .silent)
/// ```
public struct TestTLS: Sendable, Hashable {
    /// The name a client asks for (SNI).
    public var serverName: String?
    /// The application protocols (ALPN): a client's offer, a server's
    /// own (preferred first).
    public var applicationProtocols: [String]
    /// The certificate it presents: a server's; a client's, if any, for a
    /// server that asks for one (mutual TLS).
    public var certificate: TestCertificate?
    /// Whether it takes part in the handshake (``silent`` does not).
    public var answersHandshake: Bool

    /// A scripted TLS server presenting `certificate` and speaking
    /// `applicationProtocols`.
    public static func server(certificate: TestCertificate = .localhost, applicationProtocols: [String] = []) -> TestTLS {
        TestTLS(serverName: nil, applicationProtocols: applicationProtocols, certificate: certificate, answersHandshake: true)
    }

    /// A TLS client asking for `serverName`, offering
    /// `applicationProtocols`, presenting `certificate` if the server asks
    /// for one.
    public static func client(serverName: String? = "localhost", applicationProtocols: [String] = [], certificate: TestCertificate? = nil) -> TestTLS {
        TestTLS(serverName: serverName, applicationProtocols: applicationProtocols, certificate: certificate, answersHandshake: true)
    }

    /// A peer that connects (or accepts) and never says a word of the
    /// handshake: the app's side times out after its
    /// `TLSConfiguration.handshakeTimeout`, on the virtual clock.
    public static let silent = TestTLS(serverName: nil, applicationProtocols: [], certificate: nil, answersHandshake: false)

    var simulated: SimulatedTLSPeer {
        SimulatedTLSPeer(serverName: serverName, applicationProtocols: applicationProtocols, certificate: certificate?.simulated, answersHandshake: answersHandshake)
    }
}
