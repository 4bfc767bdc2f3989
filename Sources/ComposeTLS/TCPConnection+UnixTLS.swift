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
        let operation = "TCPConnection.connect(unixPath:tls:)"
        let request: StreamFilterRequest
        do throws(LoopError) {
            // A server's configuration is refused by clientFilter, naming why.
            let serverName = tls.serverName ?? ""
            guard tls.isServer || !serverName.isEmpty else {
                throw LoopError.tls(.tlsConfigurationInvalid, operation: operation, message: "a socket file names no host: set TLSConfiguration.serverName to the name the server's certificate holds", context: unixPath)
            }
            request = try tls.clientFilter(operation: operation, serverName: serverName, peer: "unix:\(unixPath)", context: context ?? AppContext.current)
        } catch {
            completion(.failure(error))
            return
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
