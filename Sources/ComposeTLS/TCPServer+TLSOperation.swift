import ComposeApp

extension TCPServer {
    /// Reads the TLS server's certificate chain and private key again
    /// (the files of its ``TLSConfiguration``) into a new context: the
    /// connections accepted from now on are given the new certificate,
    /// those accepted before keep the one they began with, and no
    /// connection is closed. The app's configuration reload does it for
    /// every TLS server that listens (`SIGHUP`; `AppConfiguration.reload()`),
    /// so renewing a certificate is replacing the files, then `kill -HUP`
    /// (`systemctl reload`).
    ///
    /// When the files cannot be used (missing, not PEM, a key that does
    /// not match the certificate), the server keeps the certificate it
    /// has and reports `Diagnostic.Code.tlsReloadFailed` (logged, and on
    /// the app's `diagnostics`) naming the file and OpenSSL's reason;
    /// nothing of the key is ever logged. So it does on a plain server,
    /// or one that does not listen (a server reads its files when it
    /// starts listening).
    ///
    /// ```swift
    /// certificateRenewed += { listener.reloadTLS() }
    /// ```
    ///
    /// - Returns: Whether the new certificate is in use.
    @discardableResult
    public func reloadTLS() -> Bool {
        guard let provider = filterProvider as? TLSServerContext else {
            let diagnostic = Diagnostic(.tlsReloadFailed, "reloadTLS() on \(host):\(port), a server without TLS: nothing to reload. Make it with TCPServer(port:tls:).", path: emitter.ownerNode?.path)
            if let context = emitter.ownerContext ?? AppContext.current { context.report(diagnostic) } else { Diagnostics.report(diagnostic) }
            return false
        }
        return provider.reload()
    }

    /// The certificate a TLS server gives the connections it accepts
    /// now: its subject and expiry (``TLSServerCertificate``); `nil` for a
    /// plain server or one that does not listen.
    public var tlsCertificate: TLSServerCertificate? {
        guard isListening, let provider = filterProvider as? TLSServerContext, let certificate = provider.certificates.first else { return nil }
        return TLSServerCertificate(file: certificate.file, subject: certificate.subject, notAfter: .seconds(certificate.notAfter))
    }
}

/// The certificate a TLS server presents (`TCPServer.tlsCertificate`).
public struct TLSServerCertificate: Sendable, Hashable {
    /// The file of the certificate chain it was read from.
    public let file: String
    /// Its subject, one line (`/CN=example.com`).
    public let subject: String
    /// When it expires: the time since the Unix epoch (UTC).
    public let notAfter: Duration
}
