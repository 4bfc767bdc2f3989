import Compose

extension TCPConnection {
    /// Connects to `host:port` on the loop of `context` (by default the
    /// running app's, ``AppContext/current``); `completion` gets the
    /// connection (not reading yet: store it in a component or call
    /// ``start()``) or a ``LoopError`` such as `uv_tcp_connect failed:
    /// ECONNREFUSED (connection refused) for 127.0.0.1:7070`.
    ///
    /// In a test context (`TestApp`) it reaches the server the test
    /// scripted on that port (`app.listen(port: 6379)`), whatever the host,
    /// and is refused where there is none.
    public static func connect(
        host: String,
        port: UInt16,
        context: AppContext? = nil,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        let address: SocketAddress
        let handle: TCPHandle
        do {
            address = try SocketAddress(host: host, port: port)
            if let network = (context ?? AppContext.current)?.simulatedNetwork {
                network.connect(to: address.description, port: port, completion)
                return
            }
            handle = try TCPHandle(loop: EventLoop.resolve(context, for: "TCPConnection.connect"))
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
                completion(.success(TCPConnection(transport: .socket(handle))))
            }
        }
        do {
            try handle.connect(to: address)
        } catch {
            handle.close()
            completion(.failure(error))
        }
    }

    /// Connects to `host:port` (see ``connect(host:port:context:_:)``).
    public static func connect(host: String, port: UInt16, context: AppContext? = nil) async throws(LoopError) -> TCPConnection {
        let context = context ?? AppContext.current
        let result: Result<TCPConnection, LoopError> = await withCheckedContinuation { continuation in
            connect(host: host, port: port, context: context) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}
