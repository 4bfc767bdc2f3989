import Compose

extension TCPConnection {
    /// Connects to the Unix domain socket at `unixPath` on the loop of
    /// `context` (by default the running app's, `AppContext.current`);
    /// `completion` gets the connection (not reading yet: store it in a
    /// component or call ``start()``), whose ``remoteAddress`` is
    /// `unix:` and the path, or a ``LoopError`` such as `uv_pipe_connect
    /// failed: ECONNREFUSED (connection refused) for /run/app.sock`
    /// (``LoopError/Code/connectionRefused`` when nobody listens,
    /// ``LoopError/Code/notFound`` when there is no such file).
    ///
    /// ```swift
    /// TCPConnection.connect(unixPath: "/run/chatd/control.sock") { result in
    ///     if case .success(let connection) = result { connection.writeLine("status") }
    /// }
    /// ```
    ///
    /// In a test context (`TestApp`) Unix sockets are not simulated yet: it
    /// fails with ``LoopError/Code/noEventLoop``, saying so.
    public static func connect(
        unixPath: String,
        context: AppContext? = nil,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        connect(unixPath: unixPath, context: context, filter: nil, completion)
    }

    /// Connects as ``connect(unixPath:context:_:)`` does, then puts a
    /// filter (TLS) under the connection and completes when its handshake
    /// does: with the connection, or with the handshake's failure (the
    /// connection then closed).
    package static func connect(
        unixPath: String,
        context: AppContext?,
        filter: StreamFilterRequest?,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        let context = context ?? AppContext.current
        if context?.simulatedNetwork != nil {
            completion(.failure(.notSimulated("TCPConnection.connect(unixPath:)", context: unixPath)))
            return
        }
        guard !unixPath.isEmpty, unixPath.utf8.count <= UnixSocketFile.maximumPathLength else {
            completion(.failure(.invalidUnixPath(unixPath, operation: "uv_pipe_connect")))
            return
        }
        let handle: UnixSocketHandle
        do {
            handle = try UnixSocketHandle(loop: EventLoop.resolve(context, for: "TCPConnection.connect(unixPath:)"))
        } catch {
            completion(.failure(error))
            return
        }
        handle.onConnect = { [unowned handle] error in
            handle.onConnect = nil
            if let error {
                handle.close()
                completion(.failure(error))
            } else if let filter {
                secure(handle, with: filter, target: "unix:\(unixPath)", scheduler: context?.scheduler, completion)
            } else {
                completion(.success(TCPConnection(transport: .socket(handle))))
            }
        }
        handle.connect(to: unixPath)
    }

    /// Connects to the Unix domain socket at `unixPath` (see
    /// ``connect(unixPath:context:_:)``).
    public static func connect(unixPath: String, context: AppContext? = nil) async throws(LoopError) -> TCPConnection {
        let context = context ?? AppContext.current
        let result: Result<TCPConnection, LoopError> = await withCheckedContinuation { continuation in
            connect(unixPath: unixPath, context: context) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}
