import Compose
import Logging

/// A TCP server: an emitter of accepted connections.
///
/// Stored in a component it listens while the component is active; each
/// accepted connection is usually handed to an `InstanceComponent`:
///
/// ```swift
/// struct ServerComponent: Component {
///     let listener = TCPServer(port: 7070)
///     let clients = InstanceComponent<ClientComponent>()
///     var observers: Void {
///         listener += { connection in
///             clients.add { ClientComponent(connection: connection) }
///         }
///         clients.forward(\.connection.didClose) += { id, _ in
///             clients.remove(id)
///         }
///     }
/// }
/// ```
///
/// Hosts are numeric (`127.0.0.1`, `::1`, `0.0.0.0`; `localhost` means
/// `127.0.0.1`). Port 0 picks a free port (``port`` tells which). Failing to
/// listen (`EADDRINUSE`, ...) is logged and sent on ``errors``, or thrown by
/// ``listen()``; made with `fatal: true`, the failure also fails its
/// component, so a `Supervisor` retries it with its backoff. A connection
/// nobody keeps is closed. As a ``LoopResource``,
/// ``start()`` listens and ``stop()`` stops listening.
///
/// **Shutdown.** When the app's shutdown begins (its
/// `ShutdownCoordinator.Phase.draining` phase), the server stops
/// listening before anything else, wherever it sits in the tree, so new
/// connections are refused; then each connection it accepted is told
/// (``TCPConnection/willDrain``) and the shutdown waits for them to close,
/// up to ``StartupConfiguration/drainTimeout``. It does not listen again
/// during the shutdown.
///
/// In a test context (`TestApp`) the server listens on the context's
/// simulated network instead of a socket: `app.connect(port:)` is a client.
///
/// **Socket activation.** When the app inherited listening sockets
/// (`LISTEN_FDS`, see ``LaunchEnvironment``), the server listens on one of
/// them instead of binding: the one named ``activationName`` in
/// `LISTEN_FDNAMES`; without an activation name, the one named after the
/// port (`"7070"`) or `host:port`, else the first TCP socket no other server
/// took, in the order servers start listening. ``port`` is then the
/// inherited socket's, ``inheritedSocket`` says which it is, and the listen
/// backlog becomes ``backlog``. A socket of the wrong kind (UDP, not
/// listening, Unix) fails with ``LoopError/Code/inheritedSocketMismatch``.
/// Closing the server leaves the inherited socket open (the server listened
/// on a duplicate), so listening again takes it again.
///
/// **Sharing a port.** With ``reusePort`` (always in a worker of the
/// workers mode, see ``WorkerOptions``, or with the setting `reusePort`),
/// several servers, in this process or
/// others of the same user, listen on the same port and the kernel spreads
/// the connections among them (`SO_REUSEPORT`).
@MainActor
public final class TCPServer: EmitterProtocol, LoopResource {
    /// Each accepted connection, not reading yet (it starts when its
    /// component appears, or on ``TCPConnection/start()``).
    public let emitter = Emitter<TCPConnection>()
    /// Failures to listen or accept.
    public let errors = Emitter<LoopError>()
    /// The host to listen on.
    public let host: String
    /// The requested port; after listening, the bound port.
    public private(set) var port: UInt16
    /// The listen backlog.
    public let backlog: Int32
    /// Whether it listens when its component appears.
    public let startsWithComponent: Bool
    /// Whether failing to listen in ``start()`` (as its component appears)
    /// is a failure of its component: the supervisor above restarts it
    /// (see `Supervisor`), or, with none, the app ends with status 70.
    public let isFatal: Bool
    /// Whether accepted connections send small writes at once (`TCP_NODELAY`,
    /// Nagle's algorithm off). `true` by default: a daemon answers lines and
    /// small messages, and Compose already batches the writes of one loop
    /// turn into one.
    public var noDelay = true
    /// TCP keepalive on accepted connections: the idle time before the
    /// kernel probes a silent peer (so a peer whose machine vanished is
    /// found out), or `nil` for none. `nil` by default; an app-level idle
    /// timeout (a timer) is usually what a daemon wants.
    public var keepAlive: Duration?
    /// Whether other sockets may listen on the same address and port
    /// (`SO_REUSEPORT`, set before binding): copies of the app, each
    /// listening, share the connections. `false` by default; in a worker of
    /// the workers mode it is on whatever this says (``WorkerOptions``), and
    /// so it is when the app's setting `reusePort` is on (`--reuse-port`,
    /// `<PREFIX>_REUSE_PORT=true`: for copies that systemd starts).
    /// Without it, a second server on a port fails with
    /// ``LoopError/Code/addressInUse``. Not used when the server listens
    /// on an inherited socket.
    public var reusePort: Bool
    /// The name of the inherited socket to listen on under socket
    /// activation (its `FileDescriptorName=` in `LISTEN_FDNAMES`), or `nil`
    /// to match by port, then by order. With a name, the server binds
    /// normally when no inherited socket has it.
    public let activationName: String?
    /// What puts a filter (TLS, ComposeTLS's `TCPServer(..., tls:)`)
    /// under each accepted connection; `nil` for plain connections.
    /// Prepared (its certificates loaded) when the server starts
    /// listening.
    package var filterProvider: (any StreamFilterProvider)?
    /// Connections accepted whose TLS handshake has not ended (completed,
    /// failed, timed out, or the connection closed); 0 for a plain server.
    /// A TLS server accepts no more while it holds its configuration's
    /// `maximumHandshakesInFlight` (see ComposeTLS's
    /// `TLSConfiguration.maximumHandshakesInFlight`): the next connection
    /// waits, not accepted, until one ends.
    public var handshakesInFlight: Int { handshakes.inFlight }
    /// Its handshakes in flight, and the accept that waits for one to end.
    private var handshakes = HandshakeGate()
    /// Where accepted connections go instead of ``emitter``, for a
    /// server that serves them itself (ComposeHTTP's `HTTPServer`): no
    /// dispatch per connection, and no observer in a component's scope.
    package var acceptHandler: (@MainActor (TCPConnection) -> Void)?
    private var handle: TCPHandle?
    /// The shutdown of the app it listens in, which closes it first and
    /// drains the connections it accepts.
    private weak var shutdown: ShutdownCoordinator?
    /// In a test context: the simulated network it listens on (its
    /// context owns it).
    private weak var network: SimulatedNetwork?

    /// - Parameters:
    ///   - host: A numeric address to listen on.
    ///   - port: The port, or 0 for any free one.
    ///   - backlog: Pending connections the kernel may queue.
    ///   - startsWithComponent: Listen when the component appears.
    ///   - fatal: A failure to listen fails the component (see
    ///     ``isFatal``): under a `Supervisor`, the listener is retried
    ///     with its backoff.
    ///   - reusePort: Share the port with other sockets (see ``reusePort``).
    ///   - activationName: The inherited socket to listen on (see
    ///     ``activationName``).
    public init(
        host: String = "127.0.0.1",
        port: UInt16,
        backlog: Int32 = 511,
        startsWithComponent: Bool = true,
        fatal: Bool = false,
        reusePort: Bool = false,
        activationName: String? = nil
    ) {
        self.host = host
        self.port = port
        self.backlog = backlog
        self.startsWithComponent = startsWithComponent
        self.isFatal = fatal
        self.reusePort = reusePort
        self.activationName = activationName
    }

    isolated deinit {
        handle?.close()
        network?.stopListening(port: port)
        shutdown?.listenerDidStop(ObjectIdentifier(self))
    }

    /// Whether the server is listening.
    public var isListening: Bool { handle != nil || network != nil }

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [emitter, errors] }

    /// Starts listening; a failure is logged and sent on ``errors``
    /// (``listen()`` throws it instead), and, when the server ``isFatal``,
    /// fails its component. Done for you when its component appears. Does
    /// nothing once the app's shutdown has begun.
    public func start() {
        if let shutdown = (emitter.ownerContext ?? AppContext.current)?.shutdown, !shutdown.acceptsConnections { return }
        do {
            try listen()
        } catch {
            report(error)
            if isFatal { emitter.ownerNode?.fail(error) }
        }
    }

    /// Starts listening.
    ///
    /// - Throws: ``LoopError`` naming the call, libuv's error and the
    ///   address, e.g. `uv_listen failed: EADDRINUSE (address already in
    ///   use) for 127.0.0.1:7070` (libuv reports a port in use at listen,
    ///   not at bind); ``LoopError/Code/cancelled`` once the
    ///   app's shutdown has begun; ``LoopError/Code/inheritedSocketMismatch``
    ///   for an inherited socket that is not a listening TCP socket.
    public func listen() throws(LoopError) {
        guard !isListening else { return }
        let context = emitter.ownerContext ?? AppContext.current
        if let shutdown = context?.shutdown, !shutdown.acceptsConnections {
            throw .shuttingDown("uv_listen", context: "\(host):\(port)")
        }
        if let network = context?.simulatedNetwork {
            // TLS is simulated: its configuration is checked, its files
            // are not read (SimulatedTLS.swift).
            if let filterProvider {
                guard let handshaker = filterProvider as? any SimulatedTLSHandshaking else {
                    throw .notSimulated("TCPServer.listen", context: "\(host):\(port)", what: "this server's filter")
                }
                try handshaker.prepareSimulation()
            }
            port = try network.listen(self, host: host, port: port)
            self.network = network
            track(in: context)
            filterListening?.listenerDidStart(self, context: context)
            return
        }
        let loop = try EventLoop.resolve(emitter.ownerContext, for: "TCPServer(\(host):\(port)).listen")
        // Its certificates are read now, so that a bad file fails the
        // listen.
        try filterProvider?.prepare()
        if let inherited = try listenOnInheritedSocket(loop: loop) {
            if let bound = inherited.localAddress { port = bound.port }
            inherited.onConnection = { [unowned self] error in self.accept(error) }
            handle = inherited
            track(in: context)
            filterListening?.listenerDidStart(self, context: context)
            return
        }
        let address = try SocketAddress(host: host, port: port)
        let server = try bindingHandle(loop: loop, address: address)
        do {
            try server.bind(address)
            try server.listen(backlog: backlog, address: address.description)
        } catch {
            server.close()
            throw error
        }
        if let bound = server.localAddress { port = bound.port }
        server.onConnection = { [unowned self] error in self.accept(error) }
        handle = server
        track(in: context)
        filterListening?.listenerDidStart(self, context: context)
    }

    private func track(in context: AppContext?) {
        guard let shutdown = context?.shutdown, shutdown.listenerDidStart(self) else { return }
        self.shutdown = shutdown
    }

    /// Stops listening (as ``close()``); ``start()`` listens again.
    public func stop() {
        close()
    }

    /// Stops listening. Accepted connections stay open.
    public func close() {
        handle?.loop.launch.release(self)
        handle?.close()
        if handle != nil || network != nil { filterListening?.listenerDidStop(self) }
        handle = nil
        // libuv closes the connection it held for us.
        handshakes.listenerClosed()
        network?.stopListening(port: port)
        network = nil
        shutdown?.listenerDidStop(ObjectIdentifier(self))
        shutdown = nil
    }

    private func accept(_ error: LoopError?) {
        do throws(LoopError) {
            if let error { throw error }
            guard let server = handle else { return }
            // Past the cap, not accepted: it waits (see HandshakeGate).
            if handshakes.holdsAccept(limit: filterListening?.maximumHandshakesInFlight) { return }
            let client = try server.acceptClient()
            client.loop.counters.pointee.connectionsAccepted &+= 1
            client.setKeepAlive(keepAlive)
            if let filterProvider {
                // Always without Nagle: a greeting written after the
                // handshake would otherwise wait for the client's ACK.
                client.setNoDelay(true)
                deliver(accepted(try filteredConnection(client, filterProvider)))
                return
            }
            client.setNoDelay(noDelay)
            deliver(accepted(TCPConnection(transport: .socket(client))))
        } catch {
            report(error)
        }
    }

    /// A connection on `client` under a filter of `provider`, its
    /// handshake started (and timed, on the app's clock) and counted
    /// among the handshakes in flight.
    private func filteredConnection(_ client: TCPHandle, _ provider: any StreamFilterProvider) throws(LoopError) -> TCPConnection {
        let peer = client.peerAddress.map { "\($0.host):\($0.port)" } ?? "unknown"
        let scheduler = (emitter.ownerContext ?? AppContext.current)?.scheduler
        return try FilteredTransport.acceptedConnection(on: client, provider: provider, peer: peer, scheduler: scheduler) {
            handshakes.handshakeBegan()
            return HandshakeSlot(listener: self)
        }
    }

    /// Accepts a simulated client (a test context's).
    func accept(_ socket: SimulatedSocket) {
        let connection = TCPConnection(transport: .simulated(socket))
        // A TLS server's handshake is simulated (SimulatedTLS.swift).
        if let handshaker = filterProvider as? any SimulatedTLSHandshaking {
            socket.beginServerHandshake(handshaker)
        }
        deliver(accepted(connection))
    }

    /// `connection`, which the app's shutdown drains.
    private func accepted(_ connection: TCPConnection) -> TCPConnection {
        if let shutdown { connection.drain(in: shutdown) }
        return connection
    }

    /// Hands `connection` to ``acceptHandler``, or sends it.
    private func deliver(_ connection: TCPConnection) {
        if let acceptHandler {
            acceptHandler(connection)
        } else {
            emitter.send(connection)
        }
    }

    private func report(_ error: LoopError) {
        logger.error("TCPServer \(host):\(port): \(error)")
        errors.send(error)
    }
}

extension TCPServer: DrainableListener {
    /// The shutdown drains the app: stop listening.
    package func stopAccepting() {
        close()
    }
}

extension TCPServer: TurnResumable, FilteredListener {
    /// The filter provider's part in the listener's life, if it has one
    /// (ComposeTLS's server context).
    var filterListening: (any StreamFilterListening)? {
        filterProvider as? any StreamFilterListening
    }

    package var listenerAddress: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    package var ownerPath: String? { emitter.ownerNode?.path }

    /// A handshake in flight ended (its ``HandshakeSlot`` was released):
    /// a connection waiting to be accepted is accepted at the next loop
    /// turn (not here: this may run inside another connection's close).
    package func handshakeDidEnd() {
        guard handshakes.handshakeEnded() else { return }
        handle?.loop.resumeNextTurn(self, delivering: true)
    }

    /// The next loop turn after a handshake ended: accepts the connection
    /// that waited (libuv then watches the socket again).
    func resumeAfterBudget() {
        guard handshakes.resume(), handle != nil else { return }
        accept(nil)
    }
}
