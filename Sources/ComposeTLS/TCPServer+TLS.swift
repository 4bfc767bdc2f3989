import ComposeApp

extension TCPServer {
    /// A TLS server: every connection it accepts runs over TLS
    /// (``TLSConfiguration``), and is otherwise the connection a plain
    /// server hands out: lines, frames, back-pressure, send-queue limits
    /// and draining work the same, on the decrypted bytes.
    ///
    /// The certificate chain and key are read when the server starts
    /// listening: a file that cannot be used fails the listen with
    /// `LoopError.Code.tlsConfigurationInvalid` (logged and sent on
    /// `errors`, or thrown by `listen()`). Each connection is handed
    /// out at once; what it writes before its handshake completes waits
    /// and leaves after it. A handshake that fails or does not finish
    /// within ``TLSConfiguration/handshakeTimeout`` (10 s) closes the
    /// connection with a typed error on its `TCPConnection.errors`
    /// (`LoopError.Code.tlsHandshakeFailed`, `LoopError.Code.timedOut`).
    /// Nagle's algorithm is off for TLS connections whatever `noDelay`
    /// says. `TCPConnection.close()` sends TLS's close_notify.
    ///
    /// In a test context (`TestApp`) the handshake is simulated (see
    /// `TestApp.connect(port:tls:)`): no file is read, the configuration
    /// judges what the test's client presents, and the connection reports
    /// its `TCPConnection.tlsSession` and fails with the same errors.
    ///
    /// ```swift
    /// let listener = TCPServer(port: 8443, tls: .server(
    ///     certificateChain: "/etc/myapp/cert.pem",
    ///     privateKey: "/etc/myapp/key.pem"
    /// ))
    /// ```
    ///
    /// - Parameters:
    ///   - host: A numeric address to listen on.
    ///   - port: The port, or 0 for any free one.
    ///   - backlog: Pending connections the kernel may queue.
    ///   - startsWithComponent: Listen when the component appears.
    ///   - fatal: A failure to listen fails the component.
    ///   - reusePort: Share the port with other sockets.
    ///   - activationName: The inherited socket to listen on.
    ///   - tls: The server's TLS configuration
    ///     (``TLSConfiguration/server(certificateChain:privateKey:applicationProtocols:)``).
    public convenience init(
        host: String = "127.0.0.1",
        port: UInt16,
        backlog: Int32 = 511,
        startsWithComponent: Bool = true,
        fatal: Bool = false,
        reusePort: Bool = false,
        activationName: String? = nil,
        tls: TLSConfiguration
    ) {
        self.init(
            host: host,
            port: port,
            backlog: backlog,
            startsWithComponent: startsWithComponent,
            fatal: fatal,
            reusePort: reusePort,
            activationName: activationName
        )
        filterProvider = TLSServerContext(tls)
    }

    /// The server's TLS configuration, `nil` for a plain server.
    public var tlsConfiguration: TLSConfiguration? {
        (filterProvider as? TLSServerContext)?.configuration
    }
}
