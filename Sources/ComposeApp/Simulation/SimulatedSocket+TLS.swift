import Compose

/// Simulated TLS on a simulated connection (see ``SimulatedTLSHandshaking``):
/// while the handshake runs, the app's writes wait and the peer's bytes
/// wait; it completes, fails or times out on the context's clock, as a
/// `FilteredTransport`'s does on a socket.
extension SimulatedSocket {
    /// Starts the handshake of a connection the app's TLS server accepted:
    /// it completes one step later when the test's client takes part
    /// (with `handshaker`'s verdict), fails when a plain client sends
    /// bytes or the client closes, and times out otherwise.
    func beginServerHandshake(_ handshaker: any SimulatedTLSHandshaking) {
        isTLS = true
        beginHandshake(timeout: handshaker.handshakeTimeout) { [weak self] error in
            self?.onEnd?(error)
        }
        guard let offer = peer.tls, offer.answersHandshake else { return }
        _ = scheduler.schedule(after: .zero) { [weak self, weak handshaker] in
            guard let self, let handshaker, handshakePending, !isClosing else { return }
            switch handshaker.simulatedHandshake(with: offer, host: nil, peer: remoteAddress) {
            case .success(let session): completeHandshake(session)
            case .failure(let error): failHandshake(error)
            }
        }
    }

    /// Marks the handshake under way, timed by `timeout`; `failed`
    /// reports its failure to the app.
    func beginHandshake(timeout: Duration?, failed: @escaping @MainActor (LoopError) -> Void) {
        handshakePending = true
        handshakeFailed = failed
        guard let timeout else { return }
        handshakeDeadline = scheduler.schedule(after: timeout) { [weak self] in
            guard let self, handshakePending, !isClosing else { return }
            handshakeDeadline = nil
            failHandshake(.tlsHandshakeTimedOut(after: timeout, peer: remoteAddress))
        }
    }

    /// The handshake completed with `session`: what waited flows.
    func completeHandshake(_ session: SimulatedTLSSession) {
        handshakePending = false
        handshakeFailed = nil
        cancelHandshakeDeadline()
        tlsSession = session
        peer.tlsSession = session
        flushOutbound()
        scheduleDelivery()
    }

    /// The handshake failed (or timed out): the app hears of `error`,
    /// which closes its connection.
    func failHandshake(_ error: LoopError) {
        guard handshakePending else { return }
        handshakePending = false
        tlsFailed = true
        cancelHandshakeDeadline()
        inbound = []
        let failed = handshakeFailed
        handshakeFailed = nil
        failed?(error)
    }

    /// A plain peer (a client of the app's TLS server, or a server the app
    /// connects to with TLS) sent bytes: OpenSSL reads no TLS record in
    /// them. Reported at the next step, never inside the
    /// peer's call.
    func plainBytesDuringHandshake() {
        _ = scheduler.schedule(after: .zero) { [weak self] in
            guard let self else { return }
            failHandshake(.tls(.tlsHandshakeFailed, operation: "TLS handshake", message: "wrong version number (the peer sent bytes that are not TLS)", context: remoteAddress))
        }
    }

    /// The peer closed during the handshake.
    func peerEndedDuringHandshake() {
        _ = scheduler.schedule(after: .zero) { [weak self] in
            guard let self else { return }
            failHandshake(.tls(.tlsHandshakeFailed, operation: "TLS handshake", message: "the peer closed the connection during the handshake", context: remoteAddress))
        }
    }

    /// A graceful end of a TLS session that completed: the peer gets
    /// close_notify.
    func sendCloseNotify() {
        guard isTLS, tlsSession != nil, !tlsFailed, !isClosing else { return }
        peer.receivedCloseNotify = true
    }

    func cancelHandshakeDeadline() {
        guard let action = handshakeDeadline else { return }
        handshakeDeadline = nil
        scheduler.cancel(action)
    }
}
