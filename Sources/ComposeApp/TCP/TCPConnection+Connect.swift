import Compose

extension TCPConnection {
    /// Connects to `host:port`; `completion` gets the connection (not
    /// reading yet: store it in a component or call ``start()``) or a
    /// ``LoopError`` such as `uv_tcp_connect failed: ECONNREFUSED
    /// (connection refused) for 127.0.0.1:7070`.
    public static func connect(
        host: String,
        port: UInt16,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        let address: SocketAddress
        let handle: TCPHandle
        do {
            address = try SocketAddress(host: host, port: port)
            handle = try TCPHandle(loop: .main)
        } catch {
            completion(.failure(error))
            return
        }
        let target = address.description
        handle.onConnect = { [unowned handle] error in
            handle.onConnect = nil
            if let error {
                handle.close()
                completion(.failure(LoopError(error.operation, code: error.code, context: target)))
            } else {
                handle.setNoDelay(true)
                completion(.success(TCPConnection(handle: handle)))
            }
        }
        do {
            try handle.connect(to: address)
        } catch {
            handle.close()
            completion(.failure(error))
        }
    }

    /// Connects to `host:port` (see ``connect(host:port:_:)``).
    public static func connect(host: String, port: UInt16) async throws(LoopError) -> TCPConnection {
        let result: Result<TCPConnection, LoopError> = await withCheckedContinuation { continuation in
            connect(host: host, port: port) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}
