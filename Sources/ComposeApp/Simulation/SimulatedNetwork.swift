internal import CLibUV
import Compose

/// The network of a test context (`TestApp`): `TCPServer`s bound in it
/// listen here instead of on a socket, and a test connects to them as a
/// peer; `TCPConnection.connect` reaches the test's scripted servers; the
/// test may hold ports as another process would. Nothing touches the
/// kernel; every event is delivered through the context's virtual clock,
/// in order.
///
/// Ports are one space, whatever the host: a port held by the app's
/// server, a scripted server or the test (``occupy(port:)``) cannot be
/// listened on by the app (`EADDRINUSE`).
@MainActor
package final class SimulatedNetwork {
    /// Weak: the context owns this network.
    private weak var context: AppContext?
    /// Weak: a server that goes away without closing must not be kept.
    private struct Listener {
        weak var server: TCPServer?
    }
    private var listeners: [UInt16: Listener] = [:]
    /// The test's servers, which the app's outgoing connections reach.
    private var scripted: [UInt16: SimulatedServer] = [:]
    /// Ports the test holds without serving them.
    private var occupied: Set<UInt16> = []
    private var nextPort: UInt16 = 49_152

    init(context: AppContext) {
        self.context = context
    }

    private func isHeld(_ port: UInt16) -> Bool {
        listeners[port]?.server != nil || scripted[port] != nil || occupied.contains(port)
    }

    // MARK: The app's servers

    /// Listens with `server` on `port` (0 picks a free one); returns the
    /// port.
    ///
    /// - Throws: `EADDRINUSE` when another server of the app, a scripted
    ///   server or the test holds it.
    func listen(_ server: TCPServer, host: String, port: UInt16) throws(LoopError) -> UInt16 {
        let chosen = port == 0 ? freePort() : port
        guard !isHeld(chosen) else {
            throw LoopError("uv_listen", code: UV_EADDRINUSE.rawValue, context: "\(host):\(chosen)")
        }
        listeners[chosen] = Listener(server: server)
        context?.beginWork()
        return chosen
    }

    /// The app's servers listening now, by port (ComposeHTTPTesting finds
    /// the app's HTTP server among them).
    package var listeningServers: [(port: UInt16, server: TCPServer)] {
        listeners.compactMap { port, listener in listener.server.map { (port, $0) } }.sorted { $0.port < $1.port }
    }

    func stopListening(port: UInt16) {
        guard listeners.removeValue(forKey: port) != nil else { return }
        context?.endWork()
    }

    /// A client of the app connects to `port`: the server accepts it (its
    /// connection emitter sends) and the test gets the client's end.
    ///
    /// - Throws: `ECONNREFUSED` when no server of the app listens there.
    /// A TLS client (`tls`) takes part in the handshake of the app's TLS
    /// server; to a plain server it is a plain client.
    package func connect(port: UInt16, tls: SimulatedTLSPeer? = nil) throws(LoopError) -> SimulatedPeer {
        guard let server = listeners[port]?.server, let context, let scheduler = context.scheduler else {
            throw LoopError("uv_tcp_connect", code: UV_ECONNREFUSED.rawValue, context: "127.0.0.1:\(port)")
        }
        let peer = SimulatedPeer(port: freePort())
        peer.tls = tls
        let socket = SimulatedSocket(peer: peer, remoteAddress: "127.0.0.1:\(peer.port)", scheduler: scheduler, context: context)
        server.accept(socket)
        return peer
    }

    // MARK: The test's servers and ports

    /// Makes a scripted server listen on `port` (0 picks a free one): the
    /// app's connections to it are accepted by `server`. It takes the port
    /// from the app's own server there, if any, for outgoing connections.
    package func listen(_ server: SimulatedServer, port: UInt16) -> UInt16 {
        let chosen = port == 0 ? freePort() : port
        scripted[chosen]?.isListening = false
        scripted[chosen] = server
        server.isListening = true
        return chosen
    }

    /// Stops the scripted server on `port`: later connections are refused.
    package func stopListening(_ server: SimulatedServer, port: UInt16) {
        guard scripted[port] === server else { return }
        scripted[port] = nil
        server.isListening = false
    }

    /// Holds `port` as another process would: the app's listen on it fails
    /// with `EADDRINUSE`, and nothing accepts connections there.
    package func occupy(port: UInt16) {
        occupied.insert(port)
    }

    /// Gives back a port ``occupy(port:)`` held.
    package func release(port: UInt16) {
        occupied.remove(port)
    }

    // MARK: The app's outgoing connections

    /// Connects the app to the scripted server on `port` (the host is not
    /// looked at). `completion` runs on the context's clock, never inside
    /// this call: with the connection, or `ECONNREFUSED` naming `target`
    /// when no scripted server listens there (the app's own servers are
    /// not reached this way).
    func connect(
        to target: String,
        port: UInt16,
        host: String,
        filter: TCPConnection.StreamFilterRequest?,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        guard let context else {
            completion(.failure(.noEventLoop("TCPConnection.connect")))
            return
        }
        // A connection under way keeps the app running, as a connecting
        // socket keeps a loop alive.
        context.beginWork()
        context.simulate { [weak self] in
            defer { context.endWork() }
            guard let self, let server = scripted[port], let scheduler = context.scheduler else {
                completion(.failure(LoopError("uv_tcp_connect", code: UV_ECONNREFUSED.rawValue, context: target)))
                return
            }
            let peer = SimulatedPeer(port: port)
            peer.tls = server.tls
            let socket = SimulatedSocket(peer: peer, remoteAddress: target, scheduler: scheduler, context: context)
            server.accepted(peer)
            guard let handshaker = filter?.simulation else {
                completion(.success(TCPConnection(transport: .simulated(socket))))
                return
            }
            clientHandshake(socket, handshaker, host: host, context: context, completion)
        }
    }

    /// The simulated TLS handshake of the app's connection on `socket` to
    /// a scripted server: `completion` gets the connection, or the
    /// handshake's failure (the connection closed: the scripted server's
    /// peer sees it end), at once when the server takes part, at the
    /// handshake's timeout when it does not (a plain or silent server).
    private func clientHandshake(
        _ socket: SimulatedSocket,
        _ handshaker: any SimulatedTLSHandshaking,
        host: String,
        context: AppContext,
        _ completion: @escaping @MainActor (Result<TCPConnection, LoopError>) -> Void
    ) {
        socket.isTLS = true
        guard let offer = socket.peer.tls, offer.answersHandshake else {
            // Waits for the deadline (the socket, held by this closure
            // until the handshake ends, keeps the app running as a socket
            // does), or for the server's bytes or close.
            socket.beginHandshake(timeout: handshaker.handshakeTimeout) { error in
                socket.close(reset: false)
                completion(.failure(error))
            }
            // A plain server's greeting, sent when it accepted.
            if socket.peer.tls == nil, !socket.inbound.isEmpty { socket.plainBytesDuringHandshake() }
            return
        }
        switch handshaker.simulatedHandshake(with: offer, host: host, peer: socket.remoteAddress) {
        case .success(let session):
            socket.tlsSession = session
            socket.peer.tlsSession = session
            completion(.success(TCPConnection(transport: .simulated(socket))))
        case .failure(let error):
            socket.tlsFailed = true
            socket.close(reset: false)
            completion(.failure(error))
        }
    }

    private func freePort() -> UInt16 {
        while isHeld(nextPort) { nextPort &+= 1 }
        defer { nextPort = nextPort == .max ? 49_152 : nextPort + 1 }
        return nextPort
    }
}
