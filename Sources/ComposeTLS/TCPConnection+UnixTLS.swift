import ComposeApp

extension TCPConnection {
    /// Connects to the Unix domain socket at `unixPath` over TLS, as
    /// `connect(host:port:tls:context:_:)` does over TCP: `completion`
    /// gets the connection once the handshake completed, or the failure
    /// (of the socket, as `connect(unixPath:context:_:)`, of the
    /// handshake, or of the server's certificate).
    ///
    /// A socket file names no host, so the configuration must say which
    /// name the server's certificate must hold:
    /// ``TLSConfiguration/serverName`` (also sent as SNI). Without it the
    /// connect fails with `LoopError.Code.tlsConfigurationInvalid`.
    ///
    /// ```swift
    /// let tls = TLSConfiguration.client(trustRoots: .file("/etc/myapp/ca.pem"), serverName: "myapp.local")
    /// let control = try await TCPConnection.connect(unixPath: "/run/myapp/control.sock", tls: tls)
    /// ```
    ///
    /// - Parameters:
    ///   - unixPath: The socket file.
    ///   - tls: The client's TLS configuration, with a `serverName`.
    ///   - context: The app context (the running app's by default).
    ///   - completion: Called once, on the loop.
    public static func connect(
        unixPath: String,
        tls: TLSConfiguration,
        context: AppContext? = nil,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        guard !tls.isServer else {
            completion(.failure(.tls(.tlsConfigurationInvalid, operation: "TCPConnection.connect(unixPath:tls:)", message: "a client needs a client configuration: TLSConfiguration.client()", context: unixPath)))
            return
        }
        guard let serverName = tls.serverName, !serverName.isEmpty else {
            completion(.failure(.tls(.tlsConfigurationInvalid, operation: "TCPConnection.connect(unixPath:tls:)", message: "a socket file names no host: set TLSConfiguration.serverName to the name the server's certificate holds", context: unixPath)))
            return
        }
        let tlsContext: TLSContext
        do {
            tlsContext = try TLSContext(tls)
        } catch {
            completion(.failure(error))
            return
        }
        let request = StreamFilterRequest(handshakeTimeout: tls.handshakeTimeout) { () throws(LoopError) -> any StreamFilter in
            try TLSEngine(context: tlsContext, host: serverName, peer: "unix:\(unixPath)")
        }
        connect(unixPath: unixPath, context: context, filter: request, completion)
    }

    /// Connects to the Unix domain socket at `unixPath` over TLS (see
    /// `connect(unixPath:tls:context:_:)`).
    public static func connect(unixPath: String, tls: TLSConfiguration, context: AppContext? = nil) async throws(LoopError) -> TCPConnection {
        let context = context ?? AppContext.current
        let result: Result<TCPConnection, LoopError> = await withCheckedContinuation { continuation in
            connect(unixPath: unixPath, tls: tls, context: context) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}
