import Compose

extension TCPConnection: DrainableConnection {
    /// Its listener accepted it in an app whose shutdown will drain it.
    func drain(in shutdown: ShutdownCoordinator) {
        drainingShutdown = shutdown
        shutdown.connectionDidOpen(self)
    }

    /// The drain began: tell the app (``willDrain``), or close when nobody
    /// listens.
    package func beginDrain() {
        guard isOpen, !closeAfterFlush else { return }
        if willDrain.observerCount > 0 {
            willDrain.send()
        } else {
            close()
        }
    }

    /// The drain timeout passed: close, writing out the queue (within
    /// ``closeFlushTimeout``).
    package func endDrain() {
        close()
    }

    /// The socket closed: the drain waits for it no longer.
    func drainDidEnd() {
        guard let shutdown = drainingShutdown else { return }
        drainingShutdown = nil
        shutdown.connectionDidClose(ObjectIdentifier(self))
    }
}
