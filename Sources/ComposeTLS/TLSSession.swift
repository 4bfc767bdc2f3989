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
    /// server's, seen by a client; `nil` when the peer sent none (a
    /// client, until mutual TLS).
    public let peerCertificateSubject: String?
}

extension TCPConnection {
    /// The TLS session of a connection of a TLS server, or of one made by
    /// `connect(host:port:tls:context:_:)`, once its handshake completed;
    /// `nil` before, and for a plain connection.
    public var tlsSession: TLSSession? {
        (streamFilter as? TLSEngine)?.session
    }

    /// Whether the connection runs over TLS (its handshake may not have
    /// completed yet).
    public var isTLS: Bool {
        streamFilter is TLSEngine
    }
}
