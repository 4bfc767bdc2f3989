import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The app's inspection socket: a ``UnixServer`` at
/// `<directory>/<name>.<pid>.sock` that answers the inspection protocol
/// (docs/inspection-protocol.md) to clients of the app's own user.
///
/// Listening is best effort: a directory that is not safe (see
/// ``InspectionDirectory``) or a socket that cannot be bound is logged and
/// the app runs without inspection. Nothing of it keeps the loop alive:
/// the listening socket and the client connections are unreferenced, so an
/// app whose work is done exits even while an inspector is connected.
@MainActor
final class InspectionServer {
    /// The most clients at once; more are refused (`busy`).
    static let maximumClients = 16

    let path: String
    private let context: AppContext
    private let listener: UnixServer
    /// The user allowed to connect: the app's (``geteuid()``), unless a
    /// test says otherwise.
    private let allowedUID: UInt32
    private var clients: [ObjectIdentifier: Client] = [:]
    private var acceptance: Subscription?
    /// Refused connections, until their refusal is written.
    private var refused: [ObjectIdentifier: TCPConnection] = [:]

    @MainActor
    private final class Client: InspectionOutput {
        let connection: TCPConnection
        var session: InspectionSession?
        var subscriptions: [Subscription] = []

        init(connection: TCPConnection) {
            self.connection = connection
        }

        func write(_ reply: InspectionJSON) {
            connection.writeLine(reply.text)
        }

        var queuedBytes: Int { connection.queuedBytes }
    }

    /// Clients connected now.
    var clientCount: Int { clients.count }

    /// Listens for `context`'s inspectors in `directory` (made `0700` if
    /// missing), after removing the sockets of apps that are gone.
    ///
    /// - Parameters:
    ///   - name: The app's name in the socket's file name.
    ///   - allowedUID: Who may connect (the app's user); tests inject
    ///     another to see a client refused.
    /// - Throws: ``LoopError`` when the directory is not safe or the
    ///   socket cannot be bound.
    init(context: AppContext, directory: String, name: String, allowedUID: UInt32 = geteuid()) throws(LoopError) {
        try InspectionDirectory.prepare(directory, uid: geteuid())
        let removed = InspectionDirectory.removeStaleSockets(in: directory, uid: geteuid())
        if !removed.isEmpty {
            context.logger.info("Removed inspection sockets of apps that are gone: \(removed.joined(separator: ", ")).")
        }
        self.context = context
        self.allowedUID = allowedUID
        path = directory + "/" + InspectionDirectory.socketName(app: name, pid: getpid())
        listener = UnixServer(path: path, permissions: 0o600, backlog: 16, startsWithComponent: false)
        listener.isDrained = false
        // An optional error rather than a `Result<Void, LoopError>`: making
        // that type's metadata checks `LoopError: Error` through every
        // conformance record, 171 thousand instructions at every start
        // (docs/footprint.md).
        var failure: LoopError?
        context.run {
            do throws(LoopError) {
                try listener.listen()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        listener.keepsLoopAlive = false
        acceptance = listener.emitter.observe { [unowned self] connection in self.accept(connection) }
        context.inspection.server = self
    }

    /// Stops listening (unlinking the socket) and closes every client.
    func close() {
        acceptance?.cancel()
        acceptance = nil
        listener.close()
        for client in clients.values { end(client) }
        clients = [:]
        if context.inspection.server === self { context.inspection.server = nil }
    }

    // MARK: Clients

    private func accept(_ connection: TCPConnection) {
        connection.keepsLoopAlive = false
        if let refusal = refusal(of: connection) {
            context.logger.warning("Inspection client refused: \(refusal.message)")
            refuse(connection, refusal)
            return
        }
        let client = Client(connection: connection)
        let session = InspectionSession(inspection: context.inspection, output: client)
        client.session = session
        connection.maximumLineLength = .bytes(InspectionRequest.maximumLineLength)
        // A tree of many components is a long reply: never a reason to
        // cut a client off, and the default send queue limits judge the
        // client's reading, not the reply's size (up to 64 MiB). Followers
        // are bounded by the session instead.
        connection.highWaterMark = InspectionSession.followQueueLimit
        connection.lowWaterMark = InspectionSession.followQueueLimit / 4
        connection.pausesReadingWhenFull = false
        let id = ObjectIdentifier(connection)
        client.subscriptions = [
            connection.lines.observe { [weak session] line in session?.receive(line) },
            connection.didBecomeWritable.observe { [weak session] in session?.outputDrained() },
            connection.didClose.observe { [unowned self] _ in
                if let client = self.clients.removeValue(forKey: id) { self.end(client) }
            },
        ]
        clients[id] = client
        connection.start()
    }

    /// Writes `refusal` to `connection` and ends it. The client's request
    /// is read (and dropped) until it leaves, or for 2 seconds: closing a
    /// Unix socket with unread input resets it, and the client would get
    /// `ECONNRESET` instead of the reason.
    private func refuse(_ connection: TCPConnection, _ refusal: InspectionFailure) {
        let id = ObjectIdentifier(connection)
        refused[id] = connection
        _ = connection.didClose.observe { [weak self] _ in self?.refused[id] = nil }
        connection.idleTimeout = .seconds(2)
        connection.start()
        connection.writeLine(refusal.reply.text)
        connection.shutdownWrite()
    }

    /// Why `connection` may not inspect the app, if it may not.
    private func refusal(of connection: TCPConnection) -> InspectionFailure? {
        guard case .socket(let handle as UnixSocketHandle) = connection.transport else {
            return InspectionFailure(.refused, "not a Unix socket connection")
        }
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials.of(handle)
        } catch {
            return InspectionFailure(.refused, "the peer's credentials cannot be read (\(error))")
        }
        guard peer.mayInspect(appUID: allowedUID) else {
            return InspectionFailure(.refused, "process \(peer.pid) of uid \(peer.uid) may not inspect this app (only uid \(allowedUID) may)")
        }
        guard clients.count < Self.maximumClients else {
            return InspectionFailure(.busy, "\(Self.maximumClients) inspection clients are connected already")
        }
        return nil
    }

    private func end(_ client: Client) {
        client.session?.end()
        client.session = nil
        for subscription in client.subscriptions { subscription.cancel() }
        client.subscriptions = []
        client.connection.close()
    }
}

extension UnixServer {
    /// Whether the listening socket keeps the loop running (it does unless
    /// set otherwise; the inspection server's does not).
    var keepsLoopAlive: Bool {
        get { handle?.keepsLoopAlive ?? false }
        set { handle?.keepsLoopAlive = newValue }
    }
}

extension TCPConnection {
    /// Whether the connection's socket keeps the loop running (it does
    /// unless set otherwise; inspection clients' do not).
    var keepsLoopAlive: Bool {
        get {
            if case .socket(let handle) = transport { return handle.keepsLoopAlive }
            return false
        }
        set {
            if case .socket(let handle) = transport { handle.keepsLoopAlive = newValue }
        }
    }
}
