internal import ComposeApp

/// The test's end of a simulated TCP connection: a client of a
/// ``TestApp``'s `TCPServer` (``TestApp/connect(port:)``), or a scripted
/// server's end of a connection the app opened (``TestServer/peers``).
///
/// ```swift
/// let peer = try app.connect(port: 7070)
/// #expect(peer.readLines() == ["Welcome!"])
/// peer.write("hello\n")
/// #expect(peer.readLines() == ["HELLO"])
/// peer.close()
/// ```
///
/// Each call runs what it made due in the app before it returns, so what
/// the app answered is there to read.
@MainActor
public final class TestPeer {
    private let peer: SimulatedPeer
    private weak var app: TestApp?
    private var lines = LineReader()

    init(_ peer: SimulatedPeer, app: TestApp) {
        self.peer = peer
        self.app = app
    }

    /// The test side's port: a client's own (the app sees
    /// `127.0.0.1:PORT`), or the scripted server's.
    public var port: UInt16 { peer.port }

    /// Every byte the app wrote to this client.
    public var received: [UInt8] { peer.received }

    /// Everything the app wrote to this client, as UTF-8 text.
    public var receivedText: String { String(decoding: peer.received, as: UTF8.self) }

    /// Whether the app ended the connection (closed it, half-closed it or
    /// reset it).
    public var isClosedByApp: Bool { peer.inputEnded }

    /// Whether the app reset the connection rather than closed it: it cut
    /// this peer off for not reading what it was sent
    /// (`TCPConnection.sendQueueLimits`, `closeFlushTimeout`), and a real
    /// client would read `ECONNRESET`, not end of input.
    ///
    /// ```swift
    /// peer.stopReading()
    /// peer.write("flood\n")                  // the app writes 100 MiB back
    /// #expect(peer.isResetByApp)            // past the hard limit
    /// ```
    public var isResetByApp: Bool { peer.isResetByApp }

    // MARK: TLS (simulated; see TestTLS)

    /// Whether the simulated TLS handshake with the app completed.
    public var isTLSEstablished: Bool { peer.tlsSession != nil }

    /// The application protocol (ALPN) the handshake chose, if any.
    public var tlsApplicationProtocol: String? { peer.tlsSession?.applicationProtocol }

    /// The server name (SNI) the client asked for: the app's, on a
    /// scripted server's peer (the host it connected to, or its
    /// `TLSConfiguration.serverName`); the test's own on a client.
    public var tlsServerName: String? { peer.tlsSession?.serverName }

    /// Whether the app ended the TLS session cleanly, sending TLS's
    /// close_notify (`TCPConnection.close()`, a drain), rather than
    /// failing or resetting the connection.
    ///
    /// ```swift
    /// connection.close()                    // in the app
    /// #expect(peer.receivedCloseNotify && peer.isClosedByApp)
    /// ```
    public var receivedCloseNotify: Bool { peer.receivedCloseNotify }

    /// Sends the UTF-8 bytes of `text`.
    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// Sends `bytes`.
    public func write(_ bytes: [UInt8]) {
        run("TestPeer.write(_:)") { peer.write(bytes) }
    }

    /// The complete lines received since the last call (without `\n` or
    /// `\r\n`); a line still missing its newline waits for the next call.
    public func readLines() -> [String] {
        lines.readLines(peer.received)
    }

    /// Stops reading, as a client that no longer reads: its receive buffer
    /// takes `window` more bytes, then the app's writes queue up (and its
    /// back-pressure, `TCPConnection.sendQueueLimits` and
    /// `TCPConnection.closeFlushTimeout` come into play: the soft limit's
    /// grace period runs on the app's virtual clock). What arrives
    /// meanwhile is in ``received`` only after ``resumeReading()``.
    ///
    /// A peer that reads takes what the app writes as a socket does: up to
    /// 256 KiB at each step of the clock, so a larger reply queues in the
    /// app and drains at once, in virtual time, as it would to a client
    /// that reads.
    ///
    /// ```swift
    /// peer.stopReading()
    /// peer.write("flood\n")                  // the app writes 10 MiB back
    /// app.advance(by: .seconds(30))         // the soft limit's grace period
    /// #expect(peer.isResetByApp)            // sendQueueExceeded
    /// ```
    public func stopReading(window: Int = 64 * 1024) {
        peer.stopReading(window: window)
    }

    /// While stopped (``stopReading(window:)``), reads `count` bytes of
    /// what the buffer holds: they arrive in ``received``, and the buffer
    /// takes as many more of the app's queued writes. A client that reads
    /// slowly, a little at a time.
    ///
    /// ```swift
    /// peer.stopReading()
    /// for _ in 0..<60 {
    ///     app.advance(by: .seconds(1))
    ///     peer.read(upTo: 16 * 1024)         // 16 KiB a second
    /// }
    /// ```
    public func read(upTo count: Int) {
        run("TestPeer.read(upTo:)") { peer.read(upTo: count) }
    }

    /// Reads again: what the buffer held arrives, and the app's queued
    /// writes flow (its write callbacks, `didBecomeWritable`, ...).
    public func resumeReading() {
        run("TestPeer.resumeReading()") { peer.resumeReading() }
    }

    /// Closes the connection: the app reads end of input.
    public func close() {
        run("TestPeer.close()") { peer.close() }
    }

    /// Resets the connection: the app's next read or write fails with
    /// `ECONNRESET`.
    public func reset() {
        run("TestPeer.reset()") { peer.reset() }
    }

    /// Runs `body` as the app's code and what it made due (see
    /// `TestApp.perform`); without the app (gone), just `body`.
    private func run(_ call: @autoclosure () -> String, _ body: () -> Void) {
        if let app { app.perform(call(), body) } else { body() }
    }
}
