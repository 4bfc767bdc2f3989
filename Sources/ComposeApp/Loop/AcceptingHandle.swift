/// A listening stream handle (a TCP or a Unix socket) that accepts each
/// pending connection into a fresh handle of its own kind.
@MainActor
protocol AcceptingHandle: StreamHandle {
    init(loop: EventLoop) throws(LoopError)
    func accept(into client: Self) throws(LoopError)
}

extension AcceptingHandle {
    /// Accepts the pending connection into a new handle on the same loop;
    /// if accepting fails, the new handle is closed and the error thrown.
    func acceptClient() throws(LoopError) -> Self {
        let client = try Self(loop: loop)
        do {
            try accept(into: client)
        } catch {
            client.close()
            throw error
        }
        return client
    }
}

extension TCPHandle: AcceptingHandle {}
extension UnixSocketHandle: AcceptingHandle {}
