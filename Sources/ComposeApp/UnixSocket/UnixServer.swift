import Compose
import Logging

/// A Unix domain socket server: an emitter of accepted connections, like
/// ``TCPServer`` but listening on a socket file (for a daemon's local
/// control interface, say).
///
/// Each accepted connection is a ``TCPConnection`` (the same byte stream,
/// back-pressure, limits and ``TCPConnection/lines``), whose
/// ``TCPConnection/remoteAddress`` is `unix:` and the path.
///
/// ```swift
/// struct ControlComponent: Component {
///     let listener = UnixServer(path: "/run/chatd/control.sock")
///     let clients = InstanceComponent<ClientComponent>()
///     var observers: Void {
///         listener += { connection in
///             clients.add { ClientComponent(connection: connection) }
///         }
///     }
/// }
/// ```
///
/// **The socket file.** After binding, its permissions are set to
/// ``permissions`` (`0o600` by default: only the app's user may connect)
/// before the server listens, so nobody connects in between. A socket file
/// left at the path by a crashed run is replaced: if connecting to it is
/// refused, nobody listens, and it is unlinked. If a process answers, it is
/// ``LoopError/Code/addressInUse``; if the path is anything but a socket,
/// ``LoopError/Code/alreadyExists`` and the file is left as it is. Closing
/// the server unlinks the socket file. Paths are at most 107 bytes.
///
/// Failing to listen is logged and sent on ``errors``, or thrown by
/// ``listen()``. As a ``LoopResource``, ``start()`` listens and ``stop()``
/// stops listening.
///
/// **Shutdown.** As a ``TCPServer``, it stops listening as soon as the
/// app's shutdown begins, and the shutdown drains the connections it
/// accepted (``TCPConnection/willDrain``).
///
/// **Socket activation.** When the app inherited listening sockets
/// (`LISTEN_FDS`, see ``LaunchEnvironment``), the server listens on one of
/// them instead of binding: the one named ``activationName`` in
/// `LISTEN_FDNAMES`; without an activation name, the one named after the
/// path, else the first Unix socket no other server took, in the order
/// servers start listening. The socket file is then the launcher's: its
/// permissions are left as they are (`SocketMode=` in the `.socket` unit)
/// and closing the server neither unlinks it nor closes the inherited
/// socket. A socket of the wrong kind fails with
/// ``LoopError/Code/inheritedSocketMismatch``.
///
/// In a test context (`TestApp`) Unix sockets are not simulated yet:
/// listening fails with ``LoopError/Code/noEventLoop``, saying so.
@MainActor
public final class UnixServer: EmitterProtocol, LoopResource {
    /// Each accepted connection, not reading yet (it starts when its
    /// component appears, or on ``TCPConnection/start()``).
    public let emitter = Emitter<TCPConnection>()
    /// Failures to listen or accept.
    public let errors = Emitter<LoopError>()
    /// The socket file's path.
    public let path: String
    /// The socket file's permission bits, set after binding (`0o600`).
    public let permissions: UInt16
    /// The listen backlog.
    public let backlog: Int32
    /// Whether it listens when its component appears.
    public let startsWithComponent: Bool
    /// The name of the inherited socket to listen on under socket
    /// activation (its `FileDescriptorName=` in `LISTEN_FDNAMES`), or `nil`
    /// to match by path, then by order. With a name, the server binds
    /// normally when no inherited socket has it.
    public let activationName: String?
    private(set) var handle: UnixSocketHandle?
    /// What puts a filter (TLS, ComposeTLS's `UnixServer(path:tls:)`)
    /// under each accepted connection; `nil` for plain connections.
    /// Prepared (its certificates loaded) when the server starts
    /// listening.
    package var filterProvider: (any StreamFilterProvider)?
    /// Connections accepted whose TLS handshake has not ended, as a TLS
    /// ``TCPServer``'s (``TCPServer/handshakesInFlight``): past its
    /// configuration's `maximumHandshakesInFlight` the next connection
    /// waits, not accepted, until one ends. 0 for a plain server.
    public var handshakesInFlight: Int { handshakes.inFlight }
    /// Its handshakes in flight, and the accept that waits for one to end.
    private var handshakes = HandshakeGate()
    /// The shutdown of the app it listens in (see ``TCPServer``).
    private weak var shutdown: ShutdownCoordinator?
    /// Whether it is one of the app's servers: the app's shutdown drains
    /// it (stops it, and waits for its connections), and it takes an
    /// inherited socket under socket activation. The inspection server's
    /// is not, so that an inspector never holds a shutdown and never takes
    /// a socket meant for the app.
    var isDrained = true

    /// - Parameters:
    ///   - path: The socket file, at most 107 bytes.
    ///   - permissions: Its permission bits; `0o600` (owner only) unless
    ///     given, e.g. `0o660` for the owner's group too.
    ///   - backlog: Pending connections the kernel may queue.
    ///   - startsWithComponent: Listen when the component appears.
    ///   - activationName: The inherited socket to listen on (see
    ///     ``activationName``).
    public init(
        path: String,
        permissions: UInt16 = 0o600,
        backlog: Int32 = 511,
        startsWithComponent: Bool = true,
        activationName: String? = nil
    ) {
        self.path = path
        self.permissions = permissions
        self.backlog = backlog
        self.startsWithComponent = startsWithComponent
        self.activationName = activationName
    }

    isolated deinit {
        handle?.close()
        shutdown?.listenerDidStop(ObjectIdentifier(self))
    }

    /// Whether the server is listening.
    public var isListening: Bool { handle != nil }

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [emitter, errors] }

    /// Starts listening; a failure is logged and sent on ``errors``
    /// (``listen()`` throws it instead). Done for you when its component
    /// appears. Does nothing once the app's shutdown has begun.
    public func start() {
        if let shutdown = (emitter.ownerContext ?? AppContext.current)?.shutdown, !shutdown.acceptsConnections { return }
        do {
            try listen()
        } catch {
            report(error)
        }
    }

    /// Starts listening, replacing a stale socket file (see the type's
    /// documentation).
    ///
    /// - Throws: ``LoopError``, e.g. ``LoopError/Code/addressInUse`` when
    ///   another process listens on the path, ``LoopError/Code/alreadyExists``
    ///   when the path is not a socket, ``LoopError/Code/permissionDenied``
    ///   when its directory is missing or not writable,
    ///   ``LoopError/Code/invalidArgument`` for a path over 107 bytes,
    ///   ``LoopError/Code/cancelled`` once the app's shutdown has begun,
    ///   ``LoopError/Code/inheritedSocketMismatch`` for an inherited socket
    ///   that is not a listening Unix stream socket.
    public func listen() throws(LoopError) {
        guard !isListening else { return }
        let context = emitter.ownerContext ?? AppContext.current
        if isDrained, let shutdown = context?.shutdown, !shutdown.acceptsConnections {
            throw .shuttingDown("uv_listen", context: path)
        }
        if context?.simulatedNetwork != nil { throw LoopError.notSimulated("UnixServer.listen", context: path) }
        let loop = try EventLoop.resolve(context, for: "UnixServer(\(path)).listen")
        // Its certificates are read now, so that a bad file fails the listen.
        try filterProvider?.prepare()
        // The app's own servers only: the inspection socket never takes
        // a socket systemd passed for the app's listeners.
        if isDrained, let inherited = try listenOnInheritedSocket(loop: loop) {
            inherited.onConnection = { [unowned self] error in self.accept(error) }
            handle = inherited
            if let shutdown = context?.shutdown, shutdown.listenerDidStart(self) { self.shutdown = shutdown }
            filterListening?.listenerDidStart(self, context: context)
            return
        }
        try UnixSocketFile.prepareToBind(path)
        let server = try UnixSocketHandle(loop: loop)
        do {
            try server.bind(path)
            try UnixSocketFile.setPermissions(path, permissions)
            try server.listen(backlog: backlog)
        } catch {
            // Unlinks the file if it was bound.
            server.close()
            throw error
        }
        server.onConnection = { [unowned self] error in self.accept(error) }
        handle = server
        if isDrained, let shutdown = context?.shutdown, shutdown.listenerDidStart(self) { self.shutdown = shutdown }
        filterListening?.listenerDidStart(self, context: context)
    }

    /// Stops listening (as ``close()``); ``start()`` listens again.
    public func stop() {
        close()
    }

    /// Stops listening and unlinks the socket file. Accepted connections
    /// stay open.
    public func close() {
        handle?.loop.launch.release(self)
        handle?.close()
        if handle != nil { filterListening?.listenerDidStop(self) }
        handle = nil
        // libuv closes the connection it held for us.
        handshakes.listenerClosed()
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
            let connection = try filterProvider.map { provider throws(LoopError) in try filteredConnection(client, provider) }
                ?? TCPConnection(transport: .socket(client))
            if let shutdown { connection.drain(in: shutdown) }
            emitter.send(connection)
        } catch {
            report(error)
        }
    }

    /// A connection on `client` under a filter of `provider`, its
    /// handshake started (and timed, on the app's clock), as a TLS
    /// ``TCPServer``'s.
    private func filteredConnection(_ client: UnixSocketHandle, _ provider: any StreamFilterProvider) throws(LoopError) -> TCPConnection {
        let scheduler = (emitter.ownerContext ?? AppContext.current)?.scheduler
        return try FilteredTransport.acceptedConnection(on: client, provider: provider, peer: "unix:\(path)", scheduler: scheduler) {
            handshakes.handshakeBegan()
            return HandshakeSlot(listener: self)
        }
    }

    private func report(_ error: LoopError) {
        logger.error("UnixServer \(path): \(error)")
        errors.send(error)
    }
}

extension UnixServer: TurnResumable, FilteredListener {
    /// The filter provider's part in the listener's life, if it has one
    /// (ComposeTLS's server context).
    var filterListening: (any StreamFilterListening)? {
        filterProvider as? any StreamFilterListening
    }

    package var listenerAddress: String { "unix:\(path)" }

    package var ownerPath: String? { emitter.ownerNode?.path }

    /// A handshake in flight ended: a connection waiting to be accepted
    /// is accepted at the next loop turn (as ``TCPServer``'s).
    package func handshakeDidEnd() {
        guard handshakes.handshakeEnded() else { return }
        handle?.loop.resumeNextTurn(self, delivering: true)
    }

    /// The next loop turn after a handshake ended: accepts the connection
    /// that waited.
    func resumeAfterBudget() {
        guard handshakes.resume(), handle != nil else { return }
        accept(nil)
    }
}

extension UnixServer: DrainableListener {
    /// The shutdown drains the app: stop listening (the socket file goes).
    package func stopAccepting() {
        close()
    }
}
