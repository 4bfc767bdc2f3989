import ComposeApp

extension TLSConfiguration {
    /// A certificate chain and its private key (PEM files): one of a
    /// server's certificates (``TLSConfiguration/additionalCertificates``).
    public struct CertificateFiles: Sendable, Hashable {
        /// The PEM file of the certificate, then its intermediates.
        public var certificateChain: String
        /// The PEM file of the certificate's private key (not encrypted).
        public var privateKey: String

        /// - Parameters:
        ///   - certificateChain: The PEM file of the certificate, then its
        ///     intermediates.
        ///   - privateKey: The PEM file of its private key.
        public init(certificateChain: String, privateKey: String) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }

    /// Whether a server asks its clients for a certificate (mutual TLS).
    ///
    /// ```swift
    /// var tls = TLSConfiguration.server(certificateChain: "server.pem", privateKey: "server.key")
    /// tls.clientAuthentication = .require(trustRoots: "clients-ca.pem")
    /// ```
    public enum ClientAuthentication: Sendable, Hashable {
        /// Clients are not asked for a certificate (the default).
        case none
        /// Clients are asked for a certificate signed by one of the
        /// authorities of the PEM file `trustRoots`; one that sends none
        /// is let in (its ``TLSSession/peerCertificateSubject`` is `nil`),
        /// one that sends a certificate that does not verify is refused.
        case request(trustRoots: String)
        /// Clients must send a certificate signed by one of the
        /// authorities of the PEM file `trustRoots`: one that sends none,
        /// or one that does not verify, is refused
        /// (`LoopError.Code.tlsVerificationFailed` on the server's
        /// connection, naming why; the client hears of it from the
        /// server's alert).
        case require(trustRoots: String)

        /// The authorities' file, `nil` for ``none``.
        var trustRoots: String? {
            switch self {
            case .none: nil
            case .request(let file), .require(let file): file
            }
        }
    }

    /// Adds a certificate a server presents to a client that asks for a
    /// name it holds (SNI): a client that asks for a name none of the
    /// additional certificates holds (or for none) gets the first one,
    /// ``certificateChainFile``. A certificate holds a name as a client
    /// verifies it: among its subject alternative names (wildcards
    /// included), or, without any, as its common name. When several
    /// hold a name, the first certificate (then the first added) wins.
    /// The files are read, and their key matched, when the server starts
    /// listening, as the first one's.
    ///
    /// ```swift
    /// var tls = TLSConfiguration.server(certificateChain: "example.com.pem", privateKey: "example.com.key")
    /// tls.addCertificate(certificateChain: "example.org.pem", privateKey: "example.org.key")
    /// let listener = TCPServer(host: "0.0.0.0", port: 443, tls: tls)
    /// ```
    ///
    /// - Parameters:
    ///   - certificateChain: The PEM file of the certificate, then its
    ///     intermediates.
    ///   - privateKey: The PEM file of its private key.
    public mutating func addCertificate(certificateChain: String, privateKey: String) {
        additionalCertificates.append(CertificateFiles(certificateChain: certificateChain, privateKey: privateKey))
    }

    /// A client's configuration that presents a certificate when a server
    /// asks for one (mutual TLS), and otherwise is
    /// ``client(trustRoots:serverName:applicationProtocols:)``'s.
    ///
    /// ```swift
    /// let tls = TLSConfiguration.client(
    ///     trustRoots: .file("ca.pem"),
    ///     certificateChain: "client.pem",
    ///     privateKey: "client.key"
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - trustRoots: Whom it trusts (the system's store by default).
    ///   - serverName: The name to verify and send, if not the host.
    ///   - applicationProtocols: The ALPN protocols it offers.
    ///   - certificateChain: The PEM file of its certificate, then its
    ///     intermediates.
    ///   - privateKey: The PEM file of its private key.
    public static func client(
        trustRoots: TrustRoots = .system,
        serverName: String? = nil,
        applicationProtocols: [String] = [],
        certificateChain: String,
        privateKey: String
    ) -> TLSConfiguration {
        var configuration = client(trustRoots: trustRoots, serverName: serverName, applicationProtocols: applicationProtocols)
        configuration.certificateChainFile = certificateChain
        configuration.privateKeyFile = privateKey
        return configuration
    }

    /// The options of this file set on the wrong side, or malformed: why
    /// they cannot be used, and what would be right.
    func authenticationMisuse() -> LoopError? {
        func invalid(_ option: String, _ message: String) -> LoopError {
            .tls(.tlsConfigurationInvalid, operation: "TLSConfiguration.\(option)", message: message, context: nil)
        }
        if isServer {
            if !pinnedPublicKeys.isEmpty {
                return invalid("pinnedPublicKeys", "pins are a client's: a server verifies its clients with clientAuthentication")
            }
        } else {
            if !additionalCertificates.isEmpty {
                return invalid("additionalCertificates", "further certificates chosen by SNI are a server's: a client presents one, certificateChainFile and privateKeyFile (TLSConfiguration.client(certificateChain:privateKey:))")
            }
            if clientAuthentication != .none {
                return invalid("clientAuthentication", "asking for the peer's certificate is a server's: a client always verifies the server's (trustRoots)")
            }
            switch (certificateChainFile, privateKeyFile) {
            case (.some, nil):
                return invalid("privateKeyFile", "a client's certificate (\(certificateChainFile ?? "")) needs its private key: set privateKeyFile too")
            case (nil, .some):
                return invalid("certificateChainFile", "a client's private key needs its certificate: set certificateChainFile too")
            default:
                break
            }
            for pin in pinnedPublicKeys where PublicKeyPin(pin) == nil {
                return invalid("pinnedPublicKeys", "\"\(pin)\" is not a pin: a pin is the base64 of a SHA-256 digest of a SubjectPublicKeyInfo, 44 characters (optionally after \"sha256/\"), as `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64` prints it")
            }
        }
        return nil
    }
}

/// A pin of ``TLSConfiguration/pinnedPublicKeys``, checked and normalised:
/// the 44 characters of base64 (without the `sha256/` prefix).
struct PublicKeyPin: Hashable, CustomStringConvertible {
    let base64: String

    /// `nil` unless `text` is 44 characters of base64 of 32 bytes (one
    /// `=` of padding), after an optional `sha256/`.
    init?(_ text: String) {
        let value = text.hasPrefix("sha256/") ? String(text.dropFirst("sha256/".count)) : text
        let bytes = Array(value.utf8)
        guard bytes.count == 44, bytes[43] == UInt8(ascii: "=") else { return nil }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        guard bytes[..<43].allSatisfy({ alphabet.contains($0) }) else { return nil }
        // 32 bytes end in 2 bits of padding: the last symbol's low 2 bits are 0.
        guard Set("AEIMQUYcgkosw048".utf8).contains(bytes[42]) else { return nil }
        base64 = value
    }

    var description: String { "sha256/\(base64)" }
}
