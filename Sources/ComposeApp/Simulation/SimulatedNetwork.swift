internal import CLibUV
import Compose

/// The network of a test context (`TestApp`): `TCPServer`s bound in it
/// listen here instead of on a socket, and a test connects to them as a
/// peer. Nothing touches the kernel; every event is delivered through the
/// context's virtual clock, in order.
@MainActor
package final class SimulatedNetwork {
    /// Weak: the context owns this network.
    private weak var context: AppContext?
    /// Weak: a server that goes away without closing must not be kept.
    private struct Listener {
        weak var server: TCPServer?
    }
    private var listeners: [UInt16: Listener] = [:]
    private var nextPort: UInt16 = 49_152

    package init(context: AppContext) {
        self.context = context
    }

    /// Listens with `server` on `port` (0 picks a free one); returns the
    /// port.
    ///
    /// - Throws: `EADDRINUSE` when another server of the app holds it.
    func listen(_ server: TCPServer, host: String, port: UInt16) throws(LoopError) -> UInt16 {
        let chosen = port == 0 ? freePort() : port
        guard listeners[chosen]?.server == nil else {
            throw LoopError("uv_listen", code: UV_EADDRINUSE.rawValue, context: "\(host):\(chosen)")
        }
        listeners[chosen] = Listener(server: server)
        context?.beginWork()
        return chosen
    }

    func stopListening(port: UInt16) {
        guard listeners.removeValue(forKey: port) != nil else { return }
        context?.endWork()
    }

    /// A client of the app connects to `port`: the server accepts it (its
    /// connection emitter sends) and the test gets the client's end.
    ///
    /// - Throws: `ECONNREFUSED` when nothing listens there.
    package func connect(port: UInt16) throws(LoopError) -> SimulatedPeer {
        guard let server = listeners[port]?.server, let context, let scheduler = context.scheduler else {
            throw LoopError("uv_tcp_connect", code: UV_ECONNREFUSED.rawValue, context: "127.0.0.1:\(port)")
        }
        let peer = SimulatedPeer(port: freePort())
        let socket = SimulatedSocket(peer: peer, scheduler: scheduler, context: context)
        server.accept(socket)
        return peer
    }

    private func freePort() -> UInt16 {
        while listeners[nextPort] != nil { nextPort &+= 1 }
        defer { nextPort = nextPort == .max ? 49_152 : nextPort + 1 }
        return nextPort
    }
}

extension AppContext {
    /// The simulated network of a test context (`TestApp`'s).
    package var simulatedNetwork: SimulatedNetwork? { runtime as? SimulatedNetwork }
}
