/// TLS in a test context (`TestApp`): simulated as a flag on the simulated
/// connection, not run. The handshake is one step of the virtual clock
/// in which the app's side (ComposeTLS's configuration: its ALPN
/// protocols, whom it trusts, its pins, whether it asks for a client's
/// certificate) judges what the test's side presents (``SimulatedTLSPeer``),
/// with the checks and the typed errors of the real handshake; then the
/// bytes flow in the clear between the app and the test. Nothing reads a
/// PEM file and no cryptography runs (docs/protocols.md, "TLS", "Under
/// TestApp").

/// A certificate the test's side of a simulated TLS connection presents.
package struct SimulatedCertificate: Sendable, Hashable {
    /// Its subject, one line (`/CN=localhost`).
    package var subject: String
    /// The names it holds (its subject alternative names): host names,
    /// `*.example.com`, numeric addresses.
    package var names: [String]
    /// When it expires: seconds since the Unix epoch (UTC).
    package var notAfter: Int64
    /// Whether an authority the other side trusts signed it.
    package var isTrusted: Bool
    /// The pin of its public key (`sha256/` and 44 characters of base64).
    package var publicKeyPin: String

    package init(subject: String, names: [String], notAfter: Int64, isTrusted: Bool, publicKeyPin: String) {
        self.subject = subject
        self.names = names
        self.notAfter = notAfter
        self.isTrusted = isTrusted
        self.publicKeyPin = publicKeyPin
    }
}

/// What the test's end of a simulated connection does in a TLS handshake:
/// a client of the app's TLS server, or a scripted TLS server the app
/// connects to.
package struct SimulatedTLSPeer: Sendable, Hashable {
    /// The name a client asks for (SNI).
    package var serverName: String?
    /// The application protocols (ALPN): offered by a client, spoken by a
    /// server (preferred first).
    package var applicationProtocols: [String]
    /// The certificate it presents (a server's; a client's, for mutual
    /// TLS), if any.
    package var certificate: SimulatedCertificate?
    /// Whether it takes part in the handshake; `false` for a peer that
    /// connects and stays silent (the other side's handshake times out).
    package var answersHandshake: Bool

    package init(serverName: String?, applicationProtocols: [String], certificate: SimulatedCertificate?, answersHandshake: Bool) {
        self.serverName = serverName
        self.applicationProtocols = applicationProtocols
        self.certificate = certificate
        self.answersHandshake = answersHandshake
    }
}

/// What a simulated handshake settled, as the app's side sees it
/// (ComposeTLS's `TLSSession`), and what the test's side learns of it.
package struct SimulatedTLSSession: Sendable, Hashable {
    package var applicationProtocol: String?
    package var protocolVersion: String
    package var cipherSuite: String
    /// The test's certificate, as the app saw it.
    package var peerCertificateSubject: String?
    package var peerCertificateNotAfter: Int?
    /// The server name (SNI) the client sent.
    package var serverName: String?

    package init(applicationProtocol: String?, protocolVersion: String, cipherSuite: String, peerCertificateSubject: String?, peerCertificateNotAfter: Int?, serverName: String?) {
        self.applicationProtocol = applicationProtocol
        self.protocolVersion = protocolVersion
        self.cipherSuite = cipherSuite
        self.peerCertificateSubject = peerCertificateSubject
        self.peerCertificateNotAfter = peerCertificateNotAfter
        self.serverName = serverName
    }
}

/// The app's side of simulated handshakes: ComposeTLS's server context
/// (a ``StreamFilterProvider`` that conforms) and its client requests
/// (``TCPConnection/StreamFilterRequest/simulation``).
@MainActor
package protocol SimulatedTLSHandshaking: AnyObject {
    /// Checks the configuration as far as it can be without its files,
    /// when a server starts listening in a test context: a misuse fails
    /// the listen as on a socket.
    func prepareSimulation() throws(LoopError)

    /// Judges what the test's side presents: the session, or the failure
    /// the app's connection reports (a `LoopError` of a TLS code).
    /// `host` is the host a client connects to; `peer` names the other
    /// end for messages.
    func simulatedHandshake(with test: SimulatedTLSPeer, host: String?, peer: String) -> Result<SimulatedTLSSession, LoopError>

    /// How long a handshake may take (``StreamFilterProvider/handshakeTimeout``).
    var handshakeTimeout: Duration? { get }
}

extension TCPConnection {
    /// The simulated TLS session of a test context's connection, once its
    /// handshake completed.
    package var simulatedTLSSession: SimulatedTLSSession? {
        if case .simulated(let socket) = transport { return socket.tlsSession }
        return nil
    }

    /// Whether a test context's connection runs over simulated TLS (its
    /// handshake may not have completed yet).
    package var isSimulatedTLS: Bool {
        if case .simulated(let socket) = transport { return socket.isTLS }
        return false
    }
}
