import ComposeApp

extension TCPConnection {
    /// Connects to `host:port` over TLS (``TLSConfiguration/client(trustRoots:serverName:applicationProtocols:)``):
    /// `completion` gets the connection once the handshake completed (not
    /// reading yet: store it in a component or call `start()`), or the
    /// failure: of the TCP connection (as `connect(host:port:context:_:)`),
    /// of the handshake (`LoopError.Code.tlsHandshakeFailed`,
    /// `LoopError.Code.timedOut` past ``TLSConfiguration/handshakeTimeout``),
    /// or of the server's certificate
    /// (`LoopError.Code.tlsVerificationFailed`, naming the certificate
    /// and why: an unknown issuer, an expired certificate, another name).
    ///
    /// The server's chain is verified against the configuration's trust
    /// roots (the system's by default) and its name against `host` (or
    /// ``TLSConfiguration/serverName``), which is also sent as the server
    /// name (SNI) unless it is a numeric address.
    ///
    /// In a test context (`TestApp`) the handshake with the scripted
    /// server (`app.listen(port:tls:)`) is simulated: the configuration
    /// judges the test's certificate (its authority trusted or not, its
    /// expiry, its names, its key's pin) and the connect fails with the
    /// same errors; no file of the configuration is read.
    ///
    /// - Parameters:
    ///   - host: A host name or numeric address.
    ///   - port: The port.
    ///   - tls: The client's TLS configuration.
    ///   - context: The app context (the running app's by default).
    ///   - completion: Called once, on the loop.
    public static func connect(
        host: String,
        port: UInt16,
        tls: TLSConfiguration,
        context: AppContext? = nil,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        let context = context ?? AppContext.current
        let request: StreamFilterRequest
        do {
            request = try tls.clientFilter(operation: "TCPConnection.connect(tls:)", serverName: host, peer: "\(host):\(port)", context: context)
        } catch {
            completion(.failure(error))
            return
        }
        connect(host: host, port: port, context: context, filter: request, completion)
    }

    /// Connects to `host:port` over TLS (see `connect(host:port:tls:context:_:)`).
    ///
    /// ```swift
    /// let connection = try await TCPConnection.connect(host: "example.com", port: 443, tls: .client())
    /// ```
    public static func connect(host: String, port: UInt16, tls: TLSConfiguration, context: AppContext? = nil) async throws(LoopError) -> TCPConnection {
        let context = context ?? AppContext.current
        let result: Result<TCPConnection, LoopError> = await withCheckedContinuation { continuation in
            connect(host: host, port: port, tls: tls, context: context) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}

extension TLSConfiguration {
    /// What a client connection puts under itself: an engine of a context
    /// made now from this configuration, checking the server's name
    /// `serverName`. Throws `LoopError.Code.tlsConfigurationInvalid`
    /// (naming `operation` and `peer`) for a server's configuration, or
    /// the context's failure. In a test `context`, a simulated handshake
    /// (no file read).
    @MainActor
    func clientFilter(operation: String, serverName: String, peer: String, context: AppContext?) throws(LoopError) -> TCPConnection.StreamFilterRequest {
        guard !isServer else {
            throw .tls(.tlsConfigurationInvalid, operation: operation, message: "a client needs a client configuration: TLSConfiguration.client()", context: peer)
        }
        if context?.simulatedNetwork != nil {
            try checkSimulated(operation: operation, side: false)
            return TCPConnection.StreamFilterRequest(simulation: SimulatedTLSClient(self, peer: peer))
        }
        let tlsContext = try TLSContext(self)
        return TCPConnection.StreamFilterRequest(handshakeTimeout: handshakeTimeout) { () throws(LoopError) -> any StreamFilter in
            try TLSEngine(context: tlsContext, host: serverName, peer: peer)
        }
    }
}
