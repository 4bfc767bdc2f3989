/// A layer between a connection and its socket that transforms the bytes
/// both ways: TLS (ComposeTLS's engine, on OpenSSL's memory BIOs). What
/// the socket reads goes in (``receive(_:)``), the app's bytes come out
/// (``read(into:)``); what the app writes goes in (``write(_:)``), and
/// what the socket must send comes out (``takeOutput(_:)``). It makes no
/// system call and knows no loop: ``FilteredTransport`` drives it.
///
/// ComposeApp declares it, so that the stream types (``TCPConnection``,
/// its lines, frames, back-pressure and limits) work unchanged over it,
/// while the module that implements it (and links its C library) stays
/// opt-in. All on the loop thread.
@MainActor
package protocol StreamFilter: AnyObject {
    /// Bytes the peer sent, as the socket read them: kept until the
    /// handshake or ``read(into:)`` consume them.
    func receive(_ bytes: UnsafeRawBufferPointer)

    /// Advances the handshake with what was received (a client's first
    /// call makes its first message): `true` once it is complete. What it
    /// has to send waits in the output. Throws a handshake or
    /// verification failure (a ``LoopError`` of a TLS ``LoopError/Code``).
    func handshake() throws(LoopError) -> Bool

    /// The app's bytes decoded from what was received, into `buffer`: their
    /// count (0: none until more is received), or `nil` once the peer
    /// ended the stream (TLS's close_notify). Throws a protocol error.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(LoopError) -> Int?

    /// Whether bytes received wait to be decoded by ``read(into:)``.
    var hasBufferedInput: Bool { get }

    /// Encodes the app's `bytes` (after the handshake) into the output.
    func write(_ bytes: UnsafeRawBufferPointer) throws(LoopError)

    /// Calls `body` with the bytes waiting to be sent, if any, and
    /// forgets them (the pointer is valid during the call only).
    func takeOutput(_ body: (UnsafeRawBufferPointer) -> Void)

    /// Ends this side of the stream (TLS's close_notify) into the output,
    /// once, if the handshake completed and nothing failed.
    func endOutput()
}

/// What a listener needs to put a ``StreamFilter`` under each connection
/// it accepts (``TCPServer/filterProvider``): ComposeTLS's server context.
@MainActor
package protocol StreamFilterProvider: AnyObject {
    /// Loads what the filters need (certificates, keys), when the server
    /// starts listening: a failure fails the listen with its
    /// ``LoopError``.
    func prepare() throws(LoopError)

    /// A filter for one accepted connection from `peer` (its address).
    func makeFilter(peer: String) throws(LoopError) -> any StreamFilter

    /// How long a connection may take to finish its handshake before it
    /// is closed (``LoopError/Code/timedOut``), or `nil` for no limit.
    var handshakeTimeout: Duration? { get }
}

extension TCPConnection {
    /// The filter under the connection (ComposeTLS's engine), if any.
    package var streamFilter: (any StreamFilter)? {
        if case .filtered(let filtered) = transport { return filtered.filter }
        return nil
    }
}
