internal import ComposeApp
public import ComposeHTTP
public import ComposeTLS

extension HTTPServer {
    /// An HTTPS server: HTTP/1.1 over TLS (`TLSConfiguration`), on a
    /// TLS `TCPServer`. Routes, limits, health endpoints, keep-alive,
    /// pipelining and the app's drain work as on a plain server, on the
    /// decrypted bytes; what the TLS server does (certificates read when
    /// it starts listening, the handshake timeout, SNI, client
    /// certificates, typed errors) is `TCPServer.init(host:port:backlog:startsWithComponent:fatal:reusePort:activationName:tls:)`'s.
    ///
    /// The server offers the ALPN protocol `http/1.1` unless `tls` names
    /// protocols of its own (a client that offers ALPN without
    /// `http/1.1`, say `h2` only, is refused, as RFC 7301 says).
    ///
    /// ```swift
    /// import ComposeHTTPS
    ///
    /// struct API: Component {
    ///     let server = HTTPServer(port: 8443, tls: .server(
    ///         certificateChain: "/etc/myapp/cert.pem",
    ///         privateKey: "/etc/myapp/key.pem"
    ///     ))
    ///     var observers: Void {
    ///         server.serveHealth()
    ///         server.route(.get, "/hello") += { $0.respond(.ok, text: "hello\n") }
    ///     }
    /// }
    /// ```
    ///
    /// In a test context (`TestApp`) its connections are the simulated
    /// network's, with TLS simulated as a TLS `TCPServer`'s are (a
    /// handshake judged by this configuration, then the bytes in the
    /// clear); `app.http(...)` speaks it as `curl https://` would.
    ///
    /// - Parameters:
    ///   - host: A numeric address to listen on.
    ///   - port: The port, or 0 for any free one.
    ///   - limits: What a client may send (`HTTPServer.Limits`).
    ///   - backlog: Pending connections the kernel may queue.
    ///   - fatal: A failure to listen fails the component.
    ///   - reusePort: Share the port with other sockets.
    ///   - tls: The server's TLS configuration
    ///     (`TLSConfiguration.server(certificateChain:privateKey:applicationProtocols:)`).
    public convenience init(
        host: String = "127.0.0.1",
        port: UInt16,
        limits: Limits = Limits(),
        backlog: Int32 = 511,
        fatal: Bool = false,
        reusePort: Bool = false,
        tls: TLSConfiguration
    ) {
        var tls = tls
        if tls.applicationProtocols.isEmpty { tls.applicationProtocols = ["http/1.1"] }
        self.init(
            listener: TCPServer(host: host, port: port, backlog: backlog, fatal: fatal, reusePort: reusePort, tls: tls),
            limits: limits
        )
    }

    /// The server's TLS configuration (with the ALPN protocols it
    /// offers), `nil` for a plain HTTP server.
    public var tlsConfiguration: TLSConfiguration? { listener.tlsConfiguration }
}
