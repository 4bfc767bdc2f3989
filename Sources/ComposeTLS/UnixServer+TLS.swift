import ComposeApp

extension UnixServer {
    /// A TLS server on a Unix domain socket: every connection it accepts
    /// runs over TLS (``TLSConfiguration``), as a TLS `TCPServer`'s do:
    /// the same certificates (several, by SNI), client certificates,
    /// handshake timeout and typed errors, on the socket file's
    /// connections. For a local interface that must not trust the file's
    /// permissions alone, or a socket a proxy forwards TLS to. It is
    /// operated as a TLS `TCPServer` is: its certificate reloaded on
    /// `SIGHUP` or `reloadTLS()`, its expiry in
    /// `tlsCertificate`, `compose inspect` and the
    /// metrics, its handshakes in flight capped
    /// (``TLSConfiguration/maximumHandshakesInFlight``).
    ///
    /// ```swift
    /// var tls = TLSConfiguration.server(certificateChain: "/etc/myapp/cert.pem", privateKey: "/etc/myapp/key.pem")
    /// tls.clientAuthentication = .require(trustRoots: "/etc/myapp/clients-ca.pem")
    /// let control = UnixServer(path: "/run/myapp/control.sock", tls: tls)
    /// ```
    ///
    /// `openssl s_client -unix /run/myapp/control.sock` talks to it.
    ///
    /// - Parameters:
    ///   - path: The socket file, at most 107 bytes.
    ///   - permissions: Its permission bits (`0o600` by default).
    ///   - backlog: Pending connections the kernel may queue.
    ///   - startsWithComponent: Listen when the component appears.
    ///   - activationName: The inherited socket to listen on.
    ///   - tls: The server's TLS configuration
    ///     (``TLSConfiguration/server(certificateChain:privateKey:applicationProtocols:)``).
    public convenience init(
        path: String,
        permissions: UInt16 = 0o600,
        backlog: Int32 = 511,
        startsWithComponent: Bool = true,
        activationName: String? = nil,
        tls: TLSConfiguration
    ) {
        self.init(path: path, permissions: permissions, backlog: backlog, startsWithComponent: startsWithComponent, activationName: activationName)
        filterProvider = TLSServerContext(tls, server: "UnixServer(tls:)")
    }

    /// The server's TLS configuration, `nil` for a plain server.
    public var tlsConfiguration: TLSConfiguration? {
        (filterProvider as? TLSServerContext)?.configuration
    }
}
