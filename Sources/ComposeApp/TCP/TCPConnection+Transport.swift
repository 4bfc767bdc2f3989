import Compose

extension TCPConnection {
    /// What a connection reads from and writes to: a libuv socket (a
    /// ``TCPHandle`` or a ``UnixSocketHandle``), or, in a test context, a
    /// simulated one. An enum rather than a protocol, so the socket's calls
    /// stay direct on the hot path (``StreamHandle``'s are `final`).
    @MainActor
    enum Transport {
        case socket(StreamHandle)
        case simulated(SimulatedSocket)

        var isClosing: Bool {
            switch self {
            case .socket(let handle): handle.isClosing
            case .simulated(let socket): socket.isClosing
            }
        }

        var remoteAddress: String {
            switch self {
            case .socket(let handle as TCPHandle):
                handle.peerAddress.map { $0.host.contains(":") ? "[\($0.host)]:\($0.port)" : "\($0.host):\($0.port)" } ?? "unknown"
            case .socket(let handle as UnixSocketHandle):
                "unix:" + handle.path
            case .socket:
                "unknown"
            case .simulated(let socket):
                socket.remoteAddress
            }
        }

        func connect(to connection: TCPConnection) {
            // unowned(unsafe): the transport calls these only while it is
            // open, and the connection closes it (dropping the closures) in
            // its deinit, so they never run after the connection is gone;
            // plain unowned would cost an atomic check on every read.
            // Chunks are not kept as the emitter's last value: a kept chunk
            // holds the loop's read buffer, and the next read would allocate.
            let onRead: @MainActor (ByteChunk) -> Void = { [unowned(unsafe) connection] chunk in connection.emitter.sendWithoutKeeping(chunk) }
            let onEnd: @MainActor (LoopError?) -> Void = { [unowned(unsafe) connection] error in connection.inputEnded(error) }
            let onClosed: @MainActor () -> Void = { [unowned(unsafe) connection] in connection.transportClosed() }
            switch self {
            case .socket(let handle):
                handle.countsAsConnection = !handle.isClosing
                handle.onRead = onRead
                // Reads skip onRead (see StreamHandle.receiver).
                handle.receiver = connection.emitter
                handle.onEnd = onEnd
                handle.onWriteCompleted = { [unowned(unsafe) connection] count, error in connection.writeCompleted(count, error) }
                handle.onClosed = onClosed
            case .simulated(let socket):
                socket.onRead = onRead
                socket.onEnd = onEnd
                socket.onWriteCompleted = { [unowned(unsafe) connection] count, error in connection.writeCompleted(count, error) }
                socket.onClosed = onClosed
            }
        }

        /// Drops the close notification (the connection is going away).
        /// The read link (``StreamHandle/receiver``) stays until the handle's
        /// close callback: a delivery that released the connection may be
        /// sending through it; the connection closes the handle next, so no
        /// read reaches it meanwhile.
        func disconnect() {
            switch self {
            case .socket(let handle):
                handle.onClosed = nil
            case .simulated(let socket): socket.onClosed = nil
            }
        }

        func startReading() throws(LoopError) {
            switch self {
            case .socket(let handle): try handle.startReading()
            case .simulated(let socket): socket.startReading()
            }
        }

        func stopReading() {
            switch self {
            case .socket(let handle): handle.stopReading()
            case .simulated(let socket): socket.stopReading()
            }
        }

        func tryWrite(_ bytes: UnsafeRawBufferPointer) throws(LoopError) -> Int {
            switch self {
            case .socket(let handle): try handle.tryWrite(bytes)
            case .simulated(let socket): try socket.tryWrite(bytes)
            }
        }

        /// The loop turn of a socket (``TurnState/turn``), `nil` for a
        /// simulated one: what the write path's common case needs to
        /// tell the turn's first write. Methods of the transport, not a
        /// `case .socket(let handle)` in the caller: a bound payload is
        /// retained across the calls made with it.
        var socketTurn: Int? {
            switch self {
            case .socket(let handle): handle.turnState.pointee.turn
            case .simulated: nil
            }
        }

        /// ``StreamHandle/tryWriteAtOnce(_:)`` on a socket (for a simulated
        /// one, which the caller never asks: "nothing written").
        @inline(__always)
        func tryWriteAtOnce(_ bytes: UnsafeRawBufferPointer) -> Int32 {
            switch self {
            case .socket(let handle): handle.tryWriteAtOnce(bytes)
            case .simulated: StreamHandle.nothingWritten
            }
        }

        /// Queues what ``tryWrite(_:)`` did not take.
        func write(copying bytes: UnsafeRawBufferPointer) throws(LoopError) {
            switch self {
            case .socket(let handle): try handle.queueWrite(copying: bytes)
            case .simulated(let socket): try socket.queueWrite(copying: bytes)
            }
        }

        func shutdown() throws(LoopError) {
            switch self {
            case .socket(let handle): try handle.shutdown()
            case .simulated(let socket): socket.shutdown()
            }
        }

        func close() {
            switch self {
            case .socket(let handle): handle.close()
            case .simulated(let socket): socket.close(reset: false)
            }
        }

        /// Closes and resets the connection (see
        /// ``TCPHandle/closeResetting()``): the peer sees `ECONNRESET`
        /// rather than end of input. A Unix domain socket has no reset: it
        /// is closed.
        func reset() {
            switch self {
            case .socket(let handle as TCPHandle): handle.closeResetting()
            case .socket(let handle): handle.close()
            case .simulated(let socket): socket.close(reset: true)
            }
        }

        /// Whether ``reset()`` resets (TCP), rather than closes (a Unix
        /// domain socket).
        var resets: Bool {
            switch self {
            case .socket(let handle): handle is TCPHandle
            case .simulated: true
            }
        }

        /// The bytes of the queued writes (``write(copying:)``) the socket
        /// has not taken yet, some of a write already taken in part.
        var unwrittenBytes: Int {
            switch self {
            case .socket(let handle): handle.unwrittenBytes
            case .simulated(let socket): socket.unwrittenBytes
            }
        }
    }
}
