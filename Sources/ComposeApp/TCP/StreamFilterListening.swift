/// A listener that puts filters under its connections: a ``TCPServer``
/// or a ``UnixServer``, as its ``StreamFilterListening`` provider sees it.
@MainActor
package protocol FilteredListener: AnyObject {
    /// Whether it listens.
    var isListening: Bool { get }
    /// Its address for messages, metrics and inspection: `host:port`,
    /// `[::1]:port`, `unix:/run/app.sock`.
    var listenerAddress: String { get }
    /// The path of the component property holding it, for diagnostics.
    var ownerPath: String? { get }
    /// A handshake in flight ended (its ``HandshakeSlot`` was released).
    func handshakeDidEnd()
}

/// What a ``StreamFilterProvider`` may add to the life of its listener
/// (ComposeTLS's server context): a cap on handshakes in flight, word of
/// when the listener starts and stops listening (so that it can follow the
/// app's configuration reloads and report its certificates' expiry), and
/// the certificates `compose inspect` shows. A provider that does not
/// conform gets none of these.
@MainActor
package protocol StreamFilterListening: StreamFilterProvider {
    /// The most connections whose handshake has not ended that the
    /// listener holds; past it the listener stops accepting until one
    /// ends (see ``TCPServer/handshakesInFlight``, ``UnixServer/handshakesInFlight``).
    /// `nil` for no cap.
    var maximumHandshakesInFlight: Int? { get }

    /// `listener` started listening (after ``StreamFilterProvider/prepare()``)
    /// in `context`'s app.
    func listenerDidStart(_ listener: any FilteredListener, context: AppContext?)

    /// `listener` stopped listening.
    func listenerDidStop(_ listener: any FilteredListener)

    /// The certificates new connections are given, for inspection.
    var certificates: [ListenerCertificate] { get }
}

/// A certificate a listener presents, as `compose inspect PID loop`
/// shows it.
package struct ListenerCertificate: Sendable, Hashable {
    /// The file it was read from.
    package var file: String
    /// Its subject, one line (`/CN=localhost`).
    package var subject: String
    /// When it expires: seconds since the Unix epoch (UTC).
    package var notAfter: Int64

    package init(file: String, subject: String, notAfter: Int64) {
        self.file = file
        self.subject = subject
        self.notAfter = notAfter
    }
}

/// A listener's handshakes in flight and the accept that waits for one
/// to end (``TCPServer``'s and ``UnixServer``'s: the same logic). Past the
/// cap the listener leaves libuv's connection callback without
/// `uv_accept` (libuv keeps that connection and stops watching the socket,
/// so the next ones wait in the kernel's backlog); when a handshake ends,
/// the next loop turn accepts it (not at once: that may run inside another
/// connection's close).
struct HandshakeGate {
    /// Connections accepted whose handshake has not ended.
    private(set) var inFlight = 0
    /// A connection waits in libuv, not accepted.
    private var acceptIsWaiting = false
    /// Accepting resumes at the next loop turn.
    private var acceptResumes = false

    /// Whether the accept must wait, at `limit` handshakes (noted if so).
    mutating func holdsAccept(limit: Int?) -> Bool {
        guard let limit, inFlight >= limit else { return false }
        acceptIsWaiting = true
        return true
    }

    /// A connection's handshake began.
    mutating func handshakeBegan() {
        inFlight += 1
    }

    /// A handshake ended: whether the accept that waits should resume at
    /// the next loop turn.
    mutating func handshakeEnded() -> Bool {
        inFlight -= 1
        guard acceptIsWaiting, !acceptResumes else { return false }
        acceptResumes = true
        return true
    }

    /// The next loop turn: whether to accept the connection that waited.
    mutating func resume() -> Bool {
        acceptResumes = false
        guard acceptIsWaiting else { return false }
        acceptIsWaiting = false
        return true
    }

    /// The listener closed: libuv closes the connection it held.
    mutating func listenerClosed() {
        acceptIsWaiting = false
        acceptResumes = false
    }
}

/// One handshake in flight on a listener (``TCPServer/handshakesInFlight``):
/// held by the connection's transport until its handshake ends (complete,
/// failed, timed out, or the connection closed), then released, once,
/// whichever comes first; its deinit releases it if the transport goes
/// without (so a slot is never lost).
@MainActor
final class HandshakeSlot {
    private weak var listener: (any FilteredListener)?
    private var isReleased = false

    init(listener: any FilteredListener) {
        self.listener = listener
    }

    /// Gives the slot back to its listener (once).
    func release() {
        guard !isReleased else { return }
        isReleased = true
        listener?.handshakeDidEnd()
    }

    isolated deinit {
        release()
    }
}
