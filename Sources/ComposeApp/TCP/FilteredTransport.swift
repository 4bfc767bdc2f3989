import Compose

/// A socket with a ``StreamFilter`` (TLS) between it and its connection:
/// the ``TCPConnection/Transport`` of a TLS connection, as Node's tls
/// module wraps a libuv stream.
///
/// **Reading.** Each chunk the socket reads goes into the filter; while
/// the handshake runs, the filter answers it (its output is queued on
/// the socket) and the socket reads whatever the connection wants. Once
/// it is complete, the app's bytes are decoded into the loop's
/// ``EventLoop/filterReadBuffer`` and delivered as ``ByteChunk``s to the
/// connection, which splits them into lines or frames as for a plain
/// socket: its limits, budgets and back-pressure apply unchanged. While
/// the connection pauses, the socket stops reading and undecoded bytes
/// stay in the filter (at most one read's worth); when it resumes, they
/// are delivered at the next loop turn.
///
/// **Writing.** The connection hands every write to ``write(copying:)``
/// (``tryWrite(_:)`` takes nothing: the filter's output is what the
/// socket must take, not the app's bytes). The bytes are encoded in
/// pieces of at most ``pieceSize``; a piece's output is written at once
/// when nothing is queued before it and the socket takes it all (its
/// bytes then reported written at the end of the turn), and otherwise
/// (what the socket left of it) queued on the socket as one write request
/// that remembers how many of the app's bytes it carries; its completion
/// reports those to the connection, so its queue, water marks,
/// send-queue limits and drained signal count the app's bytes as for a
/// plain socket. Writes made before the handshake completes wait
/// here (counted in the connection's queue) and are encoded when it does.
///
/// **Closing.** ``close()`` ends the filter's output (TLS's close_notify)
/// when the handshake completed and nothing failed, hands it to the
/// socket if the socket takes it at once (it does unless the peer stopped
/// reading, and the connection's close already waited for its queue),
/// then closes the socket. A failure (a handshake that failed or timed
/// out, a protocol error) reaches the connection as a read error (its
/// ``TCPConnection/errors``), after the filter's alert was handed to the
/// socket.
@MainActor
final class FilteredTransport: TurnResumable, EndOfTurnWork {
    /// The socket.
    let handle: StreamHandle
    /// The filter (ComposeTLS's engine).
    let filter: any StreamFilter
    /// The connection's callbacks (``TCPConnection/Transport/connect(to:)``).
    var onRead: (@MainActor (ByteChunk) -> Void)?
    var onEnd: (@MainActor (LoopError?) -> Void)?
    var onWriteCompleted: (@MainActor (Int, LoopError?) -> Void)?
    var onClosed: (@MainActor () -> Void)?
    /// Called once, when the handshake completes (`nil`) or fails: a
    /// client's connect waits for it.
    var onHandshake: (@MainActor (LoopError?) -> Void)?

    /// Whether the handshake completed.
    private(set) var isHandshakeComplete = false
    /// A failure was reported: nothing more is decoded or encoded.
    private var failed = false
    /// The socket read its end of input.
    private var socketAtEnd = false
    /// The end of input was reported to the connection.
    private var inputEnded = false
    /// Whether the connection wants to read.
    private var wantsReading = false
    /// Whether the socket reads (``updateSocketReading()``).
    private var socketReads = false
    /// The app's bytes written before the handshake completed.
    private var pendingBytes: [UInt8] = []
    /// ``shutdown()`` came before the handshake completed.
    private var shutdownAfterHandshake = false
    /// A delivery of bytes the filter holds waits for the next turn.
    private var deliveryScheduled = false
    /// The write requests queued on the socket, in order, from
    /// `requestsStart` on: the app's bytes each carries, and its size.
    private var requests: [(bytes: Int, encoded: Int)] = []
    private var requestsStart = 0
    /// The sums of `bytes` and `encoded` over the queued requests.
    private var queuedBytes = 0
    private var queuedEncoded = 0
    /// The app's bytes whose output the socket took at once this turn,
    /// reported written at its end (``endOfTurn()``).
    private var writtenAtOnce = 0
    /// The handshake's deadline, while it runs.
    private var handshakeDeadline: (action: ScheduledAction, scheduler: any Scheduler)?
    /// A server connection's place among its listener's handshakes in
    /// flight (``TCPServer/handshakesInFlight``), given back when the
    /// handshake ends (with its deadline, ``cancelHandshakeDeadline()``).
    var handshakeSlot: HandshakeSlot?

    /// The most of the app's bytes encoded into one write request: large
    /// writes leave as several, so that the socket's queue reports their
    /// progress, and an encoded copy of a large write is never held whole.
    static let pieceSize = 64 << 10

    init(handle: StreamHandle, filter: any StreamFilter) {
        self.handle = handle
        self.filter = filter
        // Weak: the handle (held by libuv until its close callback) must
        // not keep the transport, which its connection owns.
        handle.onRead = { [weak self] chunk in self?.socketRead(chunk) }
        handle.onEnd = { [weak self] error in self?.socketEnded(error) }
        handle.onWriteCompleted = { [weak self] count, error in self?.socketWrote(count, error) }
        handle.onClosed = { [weak self] in self?.onClosed?() }
    }

    var isClosing: Bool { handle.isClosing }

    /// A connection a listener accepted on `handle`, under a filter
    /// `provider` makes for `peer`, its handshake started (and timed on
    /// `scheduler`). `takeSlot` is called once the filter is made (not
    /// if it cannot be: the socket is then closed), for the listener's
    /// place among its handshakes in flight, if it keeps count.
    static func acceptedConnection(
        on handle: StreamHandle,
        provider: any StreamFilterProvider,
        peer: String,
        scheduler: (any Scheduler)?,
        takeSlot: () -> HandshakeSlot? = { nil }
    ) throws(LoopError) -> TCPConnection {
        let filter: any StreamFilter
        do {
            filter = try provider.makeFilter(peer: peer)
        } catch {
            handle.close()
            throw error
        }
        let transport = FilteredTransport(handle: handle, filter: filter)
        transport.handshakeSlot = takeSlot()
        let connection = TCPConnection(transport: .filtered(transport))
        transport.start(handshakeTimeout: provider.handshakeTimeout, scheduler: scheduler, peer: connection.remoteAddress)
        return connection
    }

    /// Starts the handshake (a client sends its first message) and its
    /// deadline, `timeout` on `scheduler`'s clock, and reads.
    func start(handshakeTimeout timeout: Duration?, scheduler: (any Scheduler)?, peer: String) {
        if let timeout, let scheduler {
            let action = scheduler.schedule(after: timeout) { [weak self] in
                guard let self, !isHandshakeComplete, !failed, !isClosing else { return }
                handshakeDeadline = nil
                fail(.tlsHandshakeTimedOut(after: timeout, peer: peer))
            }
            handshakeDeadline = (action, scheduler)
        }
        advance()
        updateSocketReading()
    }

    // MARK: Reading

    private func socketRead(_ chunk: ByteChunk) {
        filter.receive(chunk.bytes)
        advance()
    }

    /// Runs the handshake on what was received, then delivers what can be.
    private func advance() {
        guard !failed, !isClosing else { return }
        if !isHandshakeComplete {
            let complete: Bool
            do {
                complete = try filter.handshake()
            } catch {
                // The alert that says why goes to the peer first.
                flushOutput()
                fail(error)
                return
            }
            flushOutput()
            guard complete else {
                if socketAtEnd {
                    fail(.tls(.tlsHandshakeFailed, operation: "TLS handshake", message: "the peer closed the connection during the handshake", context: peerAddress))
                }
                return
            }
            handshakeDidComplete()
            guard !failed, !isClosing else { return }
        }
        deliver()
    }

    private func handshakeDidComplete() {
        isHandshakeComplete = true
        cancelHandshakeDeadline()
        if !pendingBytes.isEmpty {
            let bytes = pendingBytes
            pendingBytes = []
            let failure = bytes.withUnsafeBytes { buffer -> LoopError? in
                do throws(LoopError) {
                    try encode(buffer)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure {
                fail(failure)
                return
            }
        }
        if shutdownAfterHandshake {
            do {
                try endOutputAndShutdown()
            } catch {
                fail(error)
                return
            }
        }
        updateSocketReading()
        let callback = onHandshake
        onHandshake = nil
        callback?(nil)
    }

    /// Decodes and delivers the app's bytes while the connection reads;
    /// then, at the socket's end, the end of input.
    private func deliver() {
        // Whether the filter said it can decode nothing more for now.
        var drained = false
        while wantsReading, !failed, !inputEnded, !isClosing {
            let buffer = decodingBuffer()
            var filled = 0
            var ended = false
            var failure: LoopError?
            do {
                while filled < buffer.size {
                    let space = UnsafeMutableRawBufferPointer(start: buffer.base + filled, count: buffer.size - filled)
                    guard let count = try filter.read(into: space) else {
                        ended = true
                        break
                    }
                    if count == 0 {
                        drained = true
                        break
                    }
                    filled += count
                }
            } catch {
                failure = error
            }
            // Replies the filter owes the peer (TLS 1.3's session tickets,
            // key updates, an alert).
            flushOutput()
            if filled > 0 {
                onRead?(ByteChunk(buffer: buffer, count: filled))
            }
            if let failure {
                fail(failure)
                return
            }
            if ended {
                endInput()
                return
            }
            guard filled == buffer.size else { break }
        }
        if socketAtEnd, drained, wantsReading, !inputEnded, !failed, !isClosing {
            // The peer closed without ending the stream (no close_notify,
            // perhaps in the middle of a record): a truncation any TLS
            // peer may commit; delivered as end of input, as for a socket.
            endInput()
        }
    }

    private func endInput() {
        inputEnded = true
        updateSocketReading()
        onEnd?(nil)
    }

    /// The loop's decoding buffer, replaced when a chunk delivered from it
    /// was kept (as ``EventLoop/renewReadBufferIfKept(_:)`` does for the
    /// read buffer).
    private func decodingBuffer() -> ReadBuffer {
        let loop = handle.loop
        if loop.filterReadBuffer == nil || !isKnownUniquelyReferenced(&loop.filterReadBuffer) {
            loop.filterReadBuffer = ReadBuffer()
        }
        // Unwrapped: set just above.
        return loop.filterReadBuffer ?? ReadBuffer()
    }

    private func socketEnded(_ error: LoopError?) {
        socketReads = false
        if let error {
            fail(error)
            return
        }
        socketAtEnd = true
        advance()
    }

    func startReading() throws(LoopError) {
        wantsReading = true
        guard !failed, !isClosing else { return }
        if isHandshakeComplete, filter.hasBufferedInput || socketAtEnd, !deliveryScheduled {
            // Not now: the caller may be an observer of a delivery.
            deliveryScheduled = true
            handle.loop.resumeNextTurn(self, delivering: true)
        }
        try startSocketReadingIfNeeded()
    }

    func stopReading() {
        wantsReading = false
        updateSocketReading()
    }

    /// The next turn of a resumed connection: the bytes the filter held.
    func resumeAfterBudget() {
        deliveryScheduled = false
        guard wantsReading, !failed, !isClosing else { return }
        deliver()
    }

    /// Whether the socket should read: during the handshake always (the
    /// connection's wish comes after), then while the connection wants to.
    private var socketShouldRead: Bool {
        !isClosing && !failed && !socketAtEnd && !inputEnded && (!isHandshakeComplete || wantsReading)
    }

    private func startSocketReadingIfNeeded() throws(LoopError) {
        guard socketShouldRead, !socketReads else { return }
        try handle.startReading()
        socketReads = true
    }

    private func updateSocketReading() {
        if socketShouldRead {
            do {
                try startSocketReadingIfNeeded()
            } catch {
                fail(error)
            }
        } else if socketReads {
            socketReads = false
            handle.stopReading()
        }
    }

    // MARK: Writing

    /// The app's bytes: encoded and queued on the socket, or kept until
    /// the handshake completes.
    func write(copying bytes: UnsafeRawBufferPointer) throws(LoopError) {
        guard !failed, !isClosing else { return }
        guard isHandshakeComplete else {
            pendingBytes.append(contentsOf: bytes)
            return
        }
        try encode(bytes)
    }

    /// Encodes `bytes` in pieces, each queued as one write request.
    private func encode(_ bytes: UnsafeRawBufferPointer) throws(LoopError) {
        var offset = 0
        while offset < bytes.count {
            let count = min(Self.pieceSize, bytes.count - offset)
            try filter.write(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
            try queueOutput(carrying: count)
            offset += count
        }
    }

    /// Hands the filter's output to the socket, carrying `count` of the
    /// app's bytes: written at once when nothing is queued before it and
    /// the socket takes it all (as a plain connection's write is, and the
    /// C server of `make bench-tls` does: no copy, no write request), its
    /// `count` then reported at the end of the turn, as libuv would report
    /// a request's, never during the connection's own write call;
    /// otherwise (what is left of it) queued as one write request.
    private func queueOutput(carrying count: Int) throws(LoopError) {
        var failure: LoopError?
        var queued = false
        filter.takeOutput { output in
            guard output.count > 0 else { return }
            do throws(LoopError) {
                var rest = output
                if requestsStart == requests.count, handle.turnState.pointee.watchesTurns, handle.unwrittenBytes == 0 {
                    let result = handle.tryWriteAtOnce(output)
                    if result < 0, !StreamHandle.wouldBlock(result) {
                        throw LoopError("uv_try_write", code: result)
                    }
                    if result > 0 { rest = UnsafeRawBufferPointer(rebasing: output[Int(result)...]) }
                }
                if rest.isEmpty {
                    if count > 0 {
                        if writtenAtOnce == 0 { handle.loop.atEndOfTurn(self) }
                        writtenAtOnce += count
                    }
                } else {
                    try handle.queueWrite(copying: rest)
                    requests.append((count, rest.count))
                    queuedBytes += count
                    queuedEncoded += rest.count
                }
                queued = true
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if !queued, count > 0 {
            // Never seen (encoding always outputs), but the connection must
            // hear of every byte it handed over.
            requests.append((count, 0))
            queuedBytes += count
        }
    }

    /// Queues what the filter has to send of its own (handshake messages,
    /// tickets, alerts); a failure fails the connection.
    private func flushOutput() {
        guard !isClosing else { return }
        do {
            try queueOutput(carrying: 0)
        } catch {
            fail(error)
        }
    }

    /// The end of the turn: the app's bytes whose output the socket took
    /// at once, reported written (before any request queued after them
    /// completes: those complete at a later turn).
    func endOfTurn() {
        let count = writtenAtOnce
        writtenAtOnce = 0
        if count > 0 { onWriteCompleted?(count, nil) }
    }

    private func socketWrote(_ count: Int, _ error: LoopError?) {
        guard requestsStart < requests.count else { return }
        let request = requests[requestsStart]
        requestsStart += 1
        if requestsStart == requests.count {
            requests.removeAll(keepingCapacity: requests.count <= 64)
            requestsStart = 0
        } else if requestsStart >= 64, requestsStart * 2 >= requests.count {
            requests.removeFirst(requestsStart)
            requestsStart = 0
        }
        queuedBytes -= request.bytes
        queuedEncoded -= request.encoded
        if request.bytes > 0 || error != nil {
            onWriteCompleted?(request.bytes, error)
        }
    }

    /// The app's bytes not yet taken by the socket: those waiting for the
    /// handshake, and the share of the queued requests' bytes that the
    /// socket has not written (in proportion to what is left of their
    /// encoded bytes).
    var unwrittenBytes: Int {
        let unwritten = handle.unwrittenBytes
        guard queuedEncoded > 0, unwritten > 0 else { return pendingBytes.count }
        return pendingBytes.count + min(queuedBytes, unwritten * queuedBytes / queuedEncoded)
    }

    // MARK: Closing

    /// Half-closes: ends the filter's output, then the socket's.
    func shutdown() throws(LoopError) {
        guard !failed, !isClosing else { return }
        guard isHandshakeComplete else {
            shutdownAfterHandshake = true
            return
        }
        try endOutputAndShutdown()
    }

    private func endOutputAndShutdown() throws(LoopError) {
        filter.endOutput()
        try queueOutput(carrying: 0)
        try handle.shutdown()
    }

    /// Ends the filter's output if the socket takes it at once, then
    /// closes the socket.
    func close() {
        guard !isClosing else { return }
        cancelHandshakeDeadline()
        if isHandshakeComplete, !failed {
            filter.endOutput()
            // uv_try_write takes nothing while requests are queued, so the
            // end never overtakes them; what the socket does not take is
            // dropped with it.
            filter.takeOutput { output in _ = try? handle.tryWrite(output) }
        }
        dropCallbacks()
        handle.close()
    }

    /// Closes and resets the socket (see ``TCPHandle/closeResetting()``).
    func reset() {
        guard !isClosing else { return }
        cancelHandshakeDeadline()
        dropCallbacks()
        if let tcp = handle as? TCPHandle { tcp.closeResetting() } else { handle.close() }
    }

    /// The connection's callbacks other than ``onClosed``: nothing but the
    /// close reaches it once it closed the transport.
    private func dropCallbacks() {
        onRead = nil
        onEnd = nil
        onWriteCompleted = nil
        onHandshake = nil
    }

    /// Reports `error` (to the handshake's waiter, and to the connection
    /// as a read error, which closes it); nothing more is decoded.
    private func fail(_ error: LoopError) {
        guard !failed else { return }
        failed = true
        cancelHandshakeDeadline()
        updateSocketReading()
        let callback = onHandshake
        onHandshake = nil
        callback?(error)
        onEnd?(error)
    }

    private func cancelHandshakeDeadline() {
        handshakeSlot?.release()
        handshakeSlot = nil
        guard let (action, scheduler) = handshakeDeadline else { return }
        handshakeDeadline = nil
        scheduler.cancel(action)
    }

    private var peerAddress: String {
        (handle as? TCPHandle)?.peerAddress.map { "\($0.host):\($0.port)" } ?? "unknown"
    }
}
