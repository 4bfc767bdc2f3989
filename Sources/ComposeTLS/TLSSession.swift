/// What a TLS connection's handshake settled: `TCPConnection.tlsSession`.
public struct TLSSession: Sendable, Hashable {
    /// The application protocol both sides agreed on (ALPN), if any.
    public let applicationProtocol: String?
    /// The protocol version, as OpenSSL names it: `TLSv1.3`, `TLSv1.2`.
    public let protocolVersion: String
    /// The cipher suite, as OpenSSL names it (`TLS_AES_256_GCM_SHA384`,
    /// `ECDHE-RSA-AES128-GCM-SHA256`).
    public let cipherSuite: String
    /// The subject of the peer's certificate (`/CN=example.com`): a
    /// server's, seen by a client, or a client's, seen by a server that
    /// asks for one (``TLSConfiguration/clientAuthentication``); `nil`
    /// when the peer sent none.
    public let peerCertificateSubject: String?

    // MARK: Who the peer is (mutual TLS, SNI)

    /// The last second the peer's certificate is valid (its `notAfter`),
    /// in seconds since 1970-01-01 00:00 UTC; `nil` when the peer sent
    /// no certificate.
    public var peerCertificateNotAfter: Int? = nil
    /// The server name the client asked for (SNI), as the server saw it
    /// (it chose its certificate by it:
    /// ``TLSConfiguration/addCertificate(certificateChain:privateKey:)``),
    /// or as the client sent it; `nil` if none (a numeric address).
    public var serverName: String? = nil
}

extension TCPConnection {
    /// The TLS session of a connection of a TLS server, or of one made by
    /// `connect(host:port:tls:context:_:)`, once its handshake completed;
    /// `nil` before, and for a plain connection.
    ///
    /// In a test context (`TestApp`) the session of the simulated
    /// handshake: the ALPN protocol chosen, the test's certificate's
    /// subject and expiry, the server name; its version is always
    /// `TLSv1.3` and its suite `TLS_AES_256_GCM_SHA384`.
    public var tlsSession: TLSSession? {
        if let engine = streamFilter as? TLSEngine { return engine.session }
        return simulatedTLSSession.map(TLSSession.init)
    }

    /// Whether the connection runs over TLS (its handshake may not have
    /// completed yet), simulated in a test context.
    public var isTLS: Bool {
        streamFilter is TLSEngine || isSimulatedTLS
    }
}
