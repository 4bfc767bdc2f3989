import Logging

/// An HTTP/1.1 server on the loop: a `TCPServer` whose connections it
/// serves, and routes that are emitters of ``HTTPExchange``s.
///
/// Store it in a component, like a `TCPServer`: it listens when the
/// component appears, stops when it disappears, and is drained by the
/// app's shutdown. Declare routes in `observers`; each route lives as long
/// as its observation (a route nobody observes is no route), so a child
/// component can declare routes on the server's ``router`` handed down to
/// it, and removing the child removes them.
///
/// ```swift
/// struct GreetingAPI: Component {
///     let server = HTTPServer(host: "127.0.0.1", port: 8080)
///     var observers: Void {
///         server.route(.get, "/hello/:name") += { exchange in
///             exchange.respond(.ok, text: "hello \(exchange.parameters["name"] ?? "")\n")
///         }
///         server.route(.post, "/echo") += { exchange in
///             exchange.collectBody(upTo: 1 << 20) += { body in
///                 exchange.respond(.ok, body: body)
///             }
///         }
///     }
/// }
/// ```
///
/// A path no route matches is answered 404; one whose routes are for
/// other methods, 405 with `Allow`. `HEAD` is served by the `GET` routes
/// (without the body) unless a `HEAD` route matches. Connections are kept
/// alive (HTTP/1.1, or HTTP/1.0 with `Connection: keep-alive`) and may
/// pipeline: answers leave in request order. Every input has a limit
/// (``Limits``). On the app's drain the server stops listening, idle
/// connections close, and those with requests in flight finish them,
/// answering with `Connection: close`.
@MainActor
public final class HTTPServer: LoopResource {
    /// The TCP server underneath (its `port` once listening, its `errors`).
    public let listener: TCPServer
    let shared: HTTPServerShared
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]

    /// - Parameters:
    ///   - host: A numeric address to listen on.
    ///   - port: The port, or 0 for any free one.
    ///   - limits: What a client may send (``Limits``).
    ///   - backlog: Pending connections the kernel may queue.
    ///   - fatal: A failure to listen fails the component.
    ///   - reusePort: Share the port with other sockets.
    public convenience init(
        host: String = "127.0.0.1",
        port: UInt16,
        limits: Limits = Limits(),
        backlog: Int32 = 511,
        fatal: Bool = false,
        reusePort: Bool = false
    ) {
        self.init(
            listener: TCPServer(host: host, port: port, backlog: backlog, fatal: fatal, reusePort: reusePort),
            limits: limits
        )
    }

    /// Serves the connections `listener` accepts (a TLS one: ComposeHTTPS's
    /// `init(host:port:limits:backlog:fatal:reusePort:tls:)`). The listener
    /// is the server's alone: its accepted connections go to the server,
    /// never to its emitter's observers.
    package init(listener: TCPServer, limits: Limits) {
        self.listener = listener
        shared = HTTPServerShared(limits: limits)
        listener.acceptHandler = { [weak self] connection in self?.accept(connection) }
    }

    isolated deinit {
        // Its component is gone: so is the app's interest in its clients.
        // (A parse running when this happens stops at its next request.)
        for connection in connections.values { connection.closeGracefully() }
    }

    /// The host it listens on.
    public var host: String { listener.host }
    /// The port; once listening, the bound one.
    public var port: UInt16 { listener.port }
    /// Whether it is listening.
    public var isListening: Bool { listener.isListening }
    /// Failures to listen or accept.
    public var errors: Emitter<LoopError> { listener.errors }
    /// The limits of the connections accepted from now on.
    public var limits: Limits {
        get { shared.limits }
        set { shared.limits = newValue }
    }
    /// The connections open now.
    public var connectionCount: Int { connections.count }
    /// How many routes have an observer.
    public var routeCount: Int { shared.routes.count }

    /// The exchanges of requests for `method` whose path matches `pattern`:
    /// literal segments, `:name` parameters (one segment each) and a final
    /// `*` (the rest). Observe it in a component's `observers`; the route
    /// lasts as long as an observer does.
    ///
    /// ```swift
    /// server.route(.delete, "/items/:id") += { exchange in
    ///     items.remove(exchange.parameters["id"] ?? "")
    ///     exchange.respond(.noContent)
    /// }
    /// ```
    public func route(_ method: HTTPRequest.Method, _ pattern: String) -> Emitter<HTTPExchange> {
        shared.routes.add(method, pattern)
    }

    /// The server's routes, for child components to declare theirs
    /// (``HTTPRouter``): hand this down, not the server, which is a
    /// resource of the component that stores it.
    public var router: HTTPRouter { HTTPRouter(routes: shared.routes) }

    // MARK: LoopResource

    /// Whether it listens when its component appears (always).
    public var startsWithComponent: Bool { listener.startsWithComponent }

    /// The listener's emitters, which its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [listener.emitter, listener.errors] }

    /// Starts listening (done for you when its component appears).
    public func start() {
        shared.context = shared.context ?? listener.emitter.ownerContext ?? AppContext.current
        listener.start()
    }

    /// Starts listening; throws what ``start()`` would report.
    public func listen() throws(LoopError) {
        shared.context = shared.context ?? listener.emitter.ownerContext ?? AppContext.current
        try listener.listen()
    }

    /// Stops listening; open connections go on.
    public func stop() {
        listener.stop()
    }

    /// Stops listening and closes every connection (each after writing
    /// out what it queued).
    public func close() {
        listener.close()
        for connection in connections.values { connection.closeGracefully() }
    }

    private func accept(_ connection: TCPConnection) {
        if shared.context == nil { shared.context = listener.emitter.ownerContext ?? AppContext.current }
        let http = HTTPConnection(tcp: connection, shared: shared)
        http.onClose = { [weak self] http in self?.connections[ObjectIdentifier(http)] = nil }
        connections[ObjectIdentifier(http)] = http
        http.start()
    }
}
