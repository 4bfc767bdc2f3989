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
    /// In a test context (`TestApp`) no file is read: it returns `true`
    /// while the server listens.
    ///
    /// ```swift
    /// certificateRenewed += { listener.reloadTLS() }
    /// ```
    ///
    /// - Returns: Whether the new certificate is in use.
    @discardableResult
    public func reloadTLS() -> Bool {
        TLSServerContext.reload(filterProvider, of: self, context: emitter.ownerContext, plain: "TCPServer(port:tls:)")
    }

    /// The certificate a TLS server gives the connections it accepts
    /// now: its subject and expiry (``TLSServerCertificate``); `nil` for a
    /// plain server or one that does not listen (and in a test context,
    /// which reads no certificate).
    public var tlsCertificate: TLSServerCertificate? {
        TLSServerContext.certificate(filterProvider, of: self)
    }
}

extension UnixServer {
    /// Reads the TLS server's certificate chain and private key again, as
    /// `TCPServer.reloadTLS()` does: new connections get the new
    /// certificate, live ones keep theirs, a failure keeps the old one and
    /// is a `Diagnostic.Code.tlsReloadFailed` naming the file and why. The
    /// app's configuration reload (`SIGHUP`) does it for every TLS server
    /// that listens, Unix sockets included.
    ///
    /// ```swift
    /// let control = UnixServer(path: "/run/myapp/control.sock", tls: tls)
    /// certificateRenewed += { control.reloadTLS() }
    /// ```
    ///
    /// - Returns: Whether the new certificate is in use.
    @discardableResult
    public func reloadTLS() -> Bool {
        TLSServerContext.reload(filterProvider, of: self, context: emitter.ownerContext, plain: "UnixServer(path:tls:)")
    }

    /// The certificate the TLS server gives the connections it accepts now
    /// (see `TCPServer.tlsCertificate`); `nil` for a plain server or one
    /// that does not listen.
    public var tlsCertificate: TLSServerCertificate? {
        TLSServerContext.certificate(filterProvider, of: self)
    }
}

extension TLSServerContext {
    /// `reloadTLS()` of `listener`, whose filter provider is `provider`:
    /// a reload, or a diagnostic for a plain server (made by `plain`).
    static func reload(_ provider: (any StreamFilterProvider)?, of listener: any FilteredListener, context: AppContext?, plain: String) -> Bool {
        guard let provider = provider as? TLSServerContext else {
            let diagnostic = Diagnostic(.tlsReloadFailed, "reloadTLS() on \(listener.listenerAddress), a server without TLS: nothing to reload. Make it with \(plain).", path: listener.ownerPath)
            if let context = context ?? AppContext.current { context.report(diagnostic) } else { Diagnostics.report(diagnostic) }
            return false
        }
        return provider.reload()
    }

    /// `tlsCertificate` of `listener`, whose filter provider is `provider`.
    static func certificate(_ provider: (any StreamFilterProvider)?, of listener: any FilteredListener) -> TLSServerCertificate? {
        guard listener.isListening, let provider = provider as? TLSServerContext, let certificate = provider.certificates.first else { return nil }
        return TLSServerCertificate(file: certificate.file, subject: certificate.subject, notAfter: .seconds(certificate.notAfter))
    }
}

/// The certificate a TLS server presents (`TCPServer.tlsCertificate`,
/// `UnixServer.tlsCertificate`).
public struct TLSServerCertificate: Sendable, Hashable {
    /// The file of the certificate chain it was read from.
    public let file: String
    /// Its subject, one line (`/CN=example.com`).
    public let subject: String
    /// When it expires: the time since the Unix epoch (UTC).
    public let notAfter: Duration
}
