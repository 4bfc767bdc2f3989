internal import CLibUV
import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension TCPServer {
    /// The inherited socket the server listens on (socket activation), or
    /// `nil` when it bound its own (or does not listen).
    public var inheritedSocket: InheritedSocket? {
        (emitter.ownerContext ?? AppContext.current)?.eventLoop?.launch.socket(claimedBy: self)
    }

    /// A handle listening on the inherited socket meant for this server
    /// (see "Socket activation" in the type's documentation), or `nil` when
    /// there is none and it binds.
    func listenOnInheritedSocket(loop: EventLoop) throws(LoopError) -> TCPHandle? {
        var names: [String] = []
        if let activationName {
            names = [activationName]
        } else if port != 0 {
            names = ["\(port)", "\(host):\(port)"]
        }
        let server = "TCPServer(\(host):\(port))"
        guard let (socket, fd) = try loop.launch.claim(
            for: self, names: names, byNameOnly: activationName != nil, expected: .tcp, server: server
        ) else { return nil }
        do throws(LoopError) {
            let handle = try TCPHandle(loop: loop)
            do {
                try handle.open(fd, describing: "inherited \(socket)")
            } catch {
                // The handle did not take the descriptor.
                Glibc.close(fd)
                handle.close()
                throw error
            }
            do {
                try handle.listen(backlog: backlog, address: "inherited \(socket)")
            } catch {
                handle.close()
                throw error
            }
            let address = handle.localAddress.map { $0.host.contains(":") ? "[\($0.host)]:\($0.port)" : "\($0.host):\($0.port)" } ?? "?"
            logger.info("\(server) listens on the inherited \(socket), bound to \(address) (socket activation).")
            return handle
        } catch {
            loop.launch.release(self)
            throw error
        }
    }

    /// A handle to bind `address` with: with `SO_REUSEPORT` set when
    /// ``reusePort`` is on, the app runs as a worker, or its setting
    /// `reusePort` is on.
    func bindingHandle(loop: EventLoop, address: SocketAddress) throws(LoopError) -> TCPHandle {
        let worker = loop.launch.environment.workerIndex
        guard reusePort || worker != nil || loop.launch.reusesPorts else { return try TCPHandle(loop: loop) }
        if let worker, port == 0 {
            logger.warning("TCPServer \(host):0 in worker \(worker): each worker listens on a free port of its own, not a shared one. Give the server a port to share it between the workers.")
        }
        let handle = try TCPHandle(loop: loop, family: address.family)
        do {
            try handle.setReusePort(address: address.description)
        } catch {
            handle.close()
            throw error
        }
        return handle
    }
}

extension SocketAddress {
    /// `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }
}
