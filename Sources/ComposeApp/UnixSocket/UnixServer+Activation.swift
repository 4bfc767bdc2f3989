internal import CLibUV
import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension UnixServer {
    /// The inherited socket the server listens on (socket activation), or
    /// `nil` when it bound its own (or does not listen).
    public var inheritedSocket: InheritedSocket? {
        (emitter.ownerContext ?? AppContext.current)?.eventLoop?.launch.socket(claimedBy: self)
    }

    /// A handle listening on the inherited socket meant for this server
    /// (see "Socket activation" in the type's documentation), or `nil` when
    /// there is none and it binds.
    func listenOnInheritedSocket(loop: EventLoop) throws(LoopError) -> UnixSocketHandle? {
        let server = "UnixServer(\(path))"
        guard let (socket, fd) = try loop.launch.claim(
            for: self, names: [activationName ?? path], byNameOnly: activationName != nil, expected: .unix, server: server
        ) else { return nil }
        do throws(LoopError) {
            let handle = try UnixSocketHandle(loop: loop)
            do {
                try handle.open(fd, path: path, describing: "inherited \(socket)")
            } catch {
                // The handle did not take the descriptor.
                Glibc.close(fd)
                handle.close()
                throw error
            }
            do {
                try handle.listen(backlog: backlog)
            } catch {
                handle.close()
                throw error
            }
            logger.info("\(server) listens on the inherited \(socket), bound to \(handle.path) (socket activation).")
            return handle
        } catch {
            loop.launch.release(self)
            throw error
        }
    }
}
