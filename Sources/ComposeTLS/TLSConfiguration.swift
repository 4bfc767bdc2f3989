/// How a TLS server or client is set up: its certificate and key (a
/// server), whom it trusts (a client), the protocol versions, cipher suites
/// and application protocols (ALPN) it accepts, and how long a handshake
/// may take.
///
/// The defaults are those of Mozilla's "intermediate" profile: TLS 1.2 and
/// 1.3 only, and for TLS 1.2 only suites with forward secrecy (ECDHE key
/// exchange, AEAD ciphers: no static RSA key exchange, no CBC, no SHA-1);
/// renegotiation and compression are always off.
///
/// ```swift
/// let server = TCPServer(port: 8443, tls: .server(
///     certificateChain: "/etc/myapp/cert.pem",
///     privateKey: "/etc/myapp/key.pem"
/// ))
/// let client = try await TCPConnection.connect(host: "example.com", port: 443, tls: .client())
/// ```
public struct TLSConfiguration: Sendable, Hashable {
    /// A TLS protocol version.
    public enum Version: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// TLS 1.2 (RFC 5246).
        case tls12
        /// TLS 1.3 (RFC 8446).
        case tls13

        public var description: String {
            switch self {
            case .tls12: "TLS 1.2"
            case .tls13: "TLS 1.3"
            }
        }
    }

    /// The certificates a client trusts to sign a server's chain.
    public enum TrustRoots: Sendable, Hashable {
        /// The system's trust store (Debian: the `ca-certificates`
        /// package, `/etc/ssl/certs`), as OpenSSL finds it by default.
        case system
        /// The certificates of a PEM file (a private certificate
        /// authority), instead of the system's.
        case file(String)
    }

    /// Whether it sets up a server (``server(certificateChain:privateKey:applicationProtocols:)``)
    /// or a client (``client(trustRoots:serverName:applicationProtocols:)``).
    public let isServer: Bool
    /// A server's certificate chain (or, for mutual TLS, a client's): a
    /// PEM file holding its certificate first, then the intermediate
    /// certificates, if any.
    public var certificateChainFile: String?
    /// A server's private key (or, for mutual TLS, a client's): a PEM
    /// file (not encrypted). Its contents are never logged.
    public var privateKeyFile: String?
    /// The certificates a client trusts (``TrustRoots/system`` by
    /// default). A client always verifies the server's chain and name.
    public var trustRoots: TrustRoots = .system
    /// The name a client verifies the server's certificate against and
    /// sends (SNI), when it is not the host it connects to (a numeric
    /// address of a server whose certificate names it).
    public var serverName: String?
    /// The application protocols (ALPN, e.g. `["h2", "http/1.1"]`) in
    /// order of preference: a client offers them, a server picks the
    /// first of its own that the client offers (a client that offers some
    /// but none of these is refused, as RFC 7301 says). Empty for none.
    public var applicationProtocols: [String] = []
    /// The oldest protocol version accepted (``Version/tls12`` by default;
    /// ``Version/tls13`` for TLS 1.3 only). The newest is TLS 1.3.
    public var minimumVersion: Version = .tls12
    /// The cipher suites of TLS 1.2, in OpenSSL's cipher-list syntax
    /// (``forwardSecretCiphers`` by default). TLS 1.3's suites are
    /// OpenSSL's (all of them forward secret).
    public var ciphers: String = TLSConfiguration.forwardSecretCiphers
    /// How long a handshake may take before the connection is closed with
    /// a `LoopError.Code.timedOut` error: 10 s by default, on the app's
    /// clock, from the moment the connection is accepted (or, for a
    /// client, connected). It bounds what a client that connects and
    /// never finishes (slowloris) holds. `nil` for no limit.
    public var handshakeTimeout: Duration? = .seconds(10)

    // MARK: Who may talk to whom (TLSConfiguration+Authentication.swift)

    /// A server's further certificates, each chosen for a client that asks
    /// for a name it holds (SNI); the first certificate
    /// (``certificateChainFile``) answers every other name. See
    /// ``addCertificate(certificateChain:privateKey:)``.
    public var additionalCertificates: [CertificateFiles] = []
    /// Whether a server asks its clients for a certificate (mutual TLS),
    /// and whom it trusts to sign one: ``ClientAuthentication/none`` by
    /// default.
    public var clientAuthentication: ClientAuthentication = .none
    /// The public keys a client accepts from a server (pinning), on top
    /// of the verification of its chain and name: SHA-256 digests of a
    /// certificate's SubjectPublicKeyInfo, in base64 (44 characters),
    /// optionally prefixed `sha256/`. A server whose certificate, or a
    /// certificate of whose verified chain, has none of these keys is
    /// refused with `LoopError.Code.tlsVerificationFailed`. Empty (the
    /// default) for no pinning. Several pins let a key be replaced
    /// without a gap: pin the old and the new.
    public var pinnedPublicKeys: [String] = []

    /// TLS 1.2's suites of Mozilla's "intermediate" profile with ECDHE key
    /// exchange: ECDSA and RSA certificates, AES-GCM and ChaCha20-Poly1305.
    /// Every one has forward secrecy; none uses static RSA key exchange,
    /// CBC or SHA-1.
    public static let forwardSecretCiphers = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// A server's configuration: its certificate chain and private key
    /// (PEM files, read when the server starts listening).
    ///
    /// - Parameters:
    ///   - certificateChain: The PEM file of the certificate, then its
    ///     intermediates.
    ///   - privateKey: The PEM file of the certificate's private key.
    ///   - applicationProtocols: The ALPN protocols it speaks, preferred
    ///     first (see ``applicationProtocols``).
    public static func server(certificateChain: String, privateKey: String, applicationProtocols: [String] = []) -> TLSConfiguration {
        var configuration = TLSConfiguration(isServer: true)
        configuration.certificateChainFile = certificateChain
        configuration.privateKeyFile = privateKey
        configuration.applicationProtocols = applicationProtocols
        return configuration
    }

    /// A client's configuration: it verifies the server's certificate
    /// chain against `trustRoots` and its name against the host it
    /// connects to (or `serverName`).
    ///
    /// - Parameters:
    ///   - trustRoots: Whom it trusts (the system's store by default).
    ///   - serverName: The name to verify and send, if not the host.
    ///   - applicationProtocols: The ALPN protocols it offers.
    public static func client(trustRoots: TrustRoots = .system, serverName: String? = nil, applicationProtocols: [String] = []) -> TLSConfiguration {
        var configuration = TLSConfiguration(isServer: false)
        configuration.trustRoots = trustRoots
        configuration.serverName = serverName
        configuration.applicationProtocols = applicationProtocols
        return configuration
    }

    // MARK: Operation

    /// The most connections a server holds whose handshake has not ended
    /// (completed, failed or timed out): 256 by default; `nil` for no cap.
    ///
    /// Past it, the server accepts nothing more until a handshake ends:
    /// new connections wait, not accepted, in the kernel's listen backlog
    /// (`backlog`), and are accepted, oldest first, as handshakes end; each
    /// one's ``handshakeTimeout`` starts when it is accepted. So a flood
    /// of clients that connect and never finish costs at most this many
    /// engines (a few KiB each before the client's hello, tens of KiB
    /// during a handshake), and honest clients are delayed rather than
    /// refused: until the stalled ones time out when they hold every
    /// place, not at all otherwise (the wait is per listener, and the
    /// loop serves every handshake it holds). Handshakes that complete
    /// leave their place at once; a connection's life after its
    /// handshake has no cap here.
    public var maximumHandshakesInFlight: Int? = 256

    private init(isServer: Bool) {
        self.isServer = isServer
    }
}
