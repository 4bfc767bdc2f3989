internal import CLibUV
import Compose

extension TCPConnection {
    /// Connects to `host:port` on the loop of `context` (by default the
    /// running app's, `AppContext.current`); `completion` gets the
    /// connection (not reading yet: store it in a component or call
    /// ``start()``) or a ``LoopError`` such as `uv_tcp_connect failed:
    /// ECONNREFUSED (connection refused) for 127.0.0.1:7070`.
    ///
    /// A host name is resolved without blocking the loop (`uv_getaddrinfo`:
    /// `/etc/hosts`, then DNS), and its addresses are tried in order; a name
    /// without an address fails with ``LoopError/Code/hostNotFound``.
    ///
    /// In a test context (`TestApp`) it reaches the server the test
    /// scripted on that port (`app.listen(port: 6379)`) for `localhost` or a
    /// numeric host, and is refused where there is none; other names are
    /// ``LoopError/Code/hostNotFound``.
    public static func connect(
        host: String,
        port: UInt16,
        context: AppContext? = nil,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        connect(host: host, port: port, context: context, filter: nil, completion)
    }

    /// Connects as ``connect(host:port:context:_:)`` does, then puts a
    /// filter (TLS) under the connection and completes when its handshake
    /// does: with the connection, or with the handshake's failure (the
    /// connection then closed). In a test context the filter's
    /// ``StreamFilterRequest/simulation`` judges the scripted server's
    /// simulated handshake instead.
    package static func connect(
        host: String,
        port: UInt16,
        context: AppContext?,
        filter: StreamFilterRequest?,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        let context = context ?? AppContext.current
        if let filter, filter.simulation == nil, context?.simulatedNetwork != nil {
            completion(.failure(.notSimulated("TCPConnection.connect(tls:)", context: "\(host):\(port)", what: "this connection's filter")))
            return
        }
        if let network = context?.simulatedNetwork {
            // A test context knows no names but the loopback's.
            guard host == "localhost" || SocketAddress.isNumeric(host), let address = try? SocketAddress(host: host, port: port) else {
                completion(.failure(LoopError("uv_getaddrinfo", code: UV_EAI_NONAME.rawValue, context: "host \"\(host)\" (a test context resolves only localhost and numeric addresses)")))
                return
            }
            network.connect(to: address.description, port: port, host: host, filter: filter, completion)
            return
        }
        let loop: EventLoop
        do {
            loop = try EventLoop.resolve(context, for: "TCPConnection.connect")
            if SocketAddress.isNumeric(host) {
                connect(to: [try SocketAddress(host: host, port: port)], on: loop, filter: filter, scheduler: context?.scheduler, completion)
                return
            }
        } catch {
            completion(.failure(error))
            return
        }
        HostResolver.resolve(host, port: port, on: loop) { result in
            switch result {
            case .success(let addresses): connect(to: addresses[...], on: loop, filter: filter, scheduler: context?.scheduler, completion)
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    /// What ``connect(host:port:context:filter:_:)`` puts under the
    /// connection: a filter made once the socket is connected, and how
    /// long its handshake may take.
    package struct StreamFilterRequest {
        let make: @MainActor () throws(LoopError) -> any StreamFilter
        let handshakeTimeout: Duration?
        /// In a test context: what judges the scripted server's simulated
        /// handshake (ComposeTLS's client configuration), instead of a
        /// filter.
        let simulation: (any SimulatedTLSHandshaking)?

        package init(handshakeTimeout: Duration?, make: @escaping @MainActor () throws(LoopError) -> any StreamFilter) {
            self.make = make
            self.handshakeTimeout = handshakeTimeout
            simulation = nil
        }

        /// A request of a test context: `simulation` judges the handshake.
        @MainActor
        package init(simulation: any SimulatedTLSHandshaking) {
            make = { () throws(LoopError) -> any StreamFilter in
                throw .notSimulated("TCPConnection.connect(tls:)", context: nil, what: "real TLS in a test context")
            }
            handshakeTimeout = simulation.handshakeTimeout
            self.simulation = simulation
        }
    }

    /// Connects to the first of `addresses` that accepts, in order; fails
    /// with the last one's error.
    private static func connect(
        to addresses: ArraySlice<SocketAddress>,
        on loop: EventLoop,
        filter: StreamFilterRequest?,
        scheduler: (any Scheduler)?,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        guard let address = addresses.first else { return }
        let target = address.description
        let failed: @MainActor (LoopError) -> Void = { error in
            let failure = LoopError(error.operation, code: error.code, context: target)
            if addresses.count > 1 {
                connect(to: addresses.dropFirst(), on: loop, filter: filter, scheduler: scheduler, completion)
            } else {
                completion(.failure(failure))
            }
        }
        let handle: TCPHandle
        do {
            handle = try TCPHandle(loop: loop)
        } catch {
            completion(.failure(error))
            return
        }
        handle.onConnect = { [unowned handle] error in
            handle.onConnect = nil
            if let error {
                handle.close()
                failed(error)
            } else if let filter {
                handle.setNoDelay(true)
                secure(handle, with: filter, target: target, scheduler: scheduler, completion)
            } else {
                handle.setNoDelay(true)
                completion(.success(TCPConnection(transport: .socket(handle))))
            }
        }
        do {
            try handle.connect(to: address)
        } catch {
            handle.close()
            failed(error)
        }
    }

    /// Puts `filter`'s filter under the connected `handle` (a TCP or Unix
    /// socket) and completes when its handshake does.
    static func secure(
        _ handle: StreamHandle,
        with request: StreamFilterRequest,
        target: String,
        scheduler: (any Scheduler)?,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        let filter: any StreamFilter
        do {
            filter = try request.make()
        } catch {
            handle.close()
            completion(.failure(error))
            return
        }
        let transport = FilteredTransport(handle: handle, filter: filter)
        let connection = TCPConnection(transport: .filtered(transport))
        // The connection is held by this closure until the handshake ends
        // (the transport drops it then, or when it closes).
        transport.onHandshake = { error in
            if let error {
                completion(.failure(error))
            } else {
                completion(.success(connection))
            }
        }
        transport.start(handshakeTimeout: request.handshakeTimeout, scheduler: scheduler, peer: target)
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
