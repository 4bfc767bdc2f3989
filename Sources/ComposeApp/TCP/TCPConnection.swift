internal import CLibUV
import Compose
import Logging

/// One TCP connection: an emitter of the bytes received, plus close,
/// drained and line emitters, and `write` with back-pressure.
///
/// Store it in a component (one instance per connection, e.g. in an
/// `InstanceComponent`): it starts reading when the component appears and
/// closes when the component is destroyed. It goes on reading while the
/// component is inactive (as a ``LoopResource``, ``stopsWithComponent`` is
/// `false`).
///
/// ```swift
/// struct EchoComponent: Component {
///     let connection: TCPConnection
///     var observers: Void {
///         connection += { bytes in connection.write(bytes) }
///     }
/// }
/// ```
///
/// **Reading.** Each chunk received is a ``ByteChunk``, a view of the loop's
/// read buffer: nothing is copied unless you copy it.
///
/// **Writing.** ``write(_:)-([UInt8])`` first tries to hand the bytes to the
/// socket at once (`uv_try_write`); what the socket does not take is copied
/// into a queue. Nothing written is ever dropped silently. When the queue
/// reaches ``highWaterMark`` (1 MiB) the write returns ``WriteResult/full``;
/// with ``pausesReadingWhenFull`` (the default) reading also pauses, and
/// ``didBecomeWritable`` is sent (and reading resumes) once the queue is back at
/// ``lowWaterMark`` (256 KiB).
///
/// **A peer that does not read.** The queue judges the peer, not the
/// reply (see ``SendQueueLimits``): a reply of any size below the hard
/// limit goes out to a peer that reads it. While more than the soft limit
/// (4 MiB) waits, the peer must read at least 64 KiB every grace period
/// (30 s); a write that would take the queue past the hard limit (64 MiB)
/// is refused at once. A peer cut off either way is reset (a Unix domain
/// socket: closed), with a ``LoopError/Code/sendQueueExceeded`` error on
/// ``errors`` and a logged reason that says which limit and how much the
/// peer read meanwhile. Set ``sendQueueLimits`` per connection;
/// ``peakQueuedBytes`` says how much a peer made the process hold.
///
/// **Closing.** ``close()`` stops reading, writes out the queue, then
/// closes; a peer that leaves the queue unread for ``closeFlushTimeout``
/// (2 s) is cut off and reset (``LoopError/Code/sendQueueExceeded``), so
/// one stuck client never holds a graceful shutdown until its deadline.
/// ``abort()`` closes at once, dropping the queue. ``shutdownWrite()``
/// half-closes (sends FIN after the queue). When the peer ends its side the
/// connection closes (``closesOnEndOfInput``). ``didClose`` is sent exactly
/// once, when the socket is closed, with the reason.
///
/// **Shutdown.** A connection a ``TCPServer`` or ``UnixServer`` accepted
/// is drained when the app shuts down: ``willDrain`` is sent (say goodbye,
/// then ``close()``), and the shutdown waits for it to close, up to
/// ``StartupConfiguration/drainTimeout``, before it closes it.
@MainActor
public final class TCPConnection: EmitterProtocol, LoopResource, ReadableStream, WritableStream {
    /// Why a connection closed.
    public enum CloseReason: Sendable, Equatable, CustomStringConvertible {
        /// This side closed it (``close()``, ``abort()``, its component
        /// destroyed).
        case local
        /// The peer ended the connection (end of input).
        case remote
        /// A read or write failed (`ECONNRESET`, `EPIPE`, ...).
        case failed(LoopError)

        public var description: String {
            switch self {
            case .local: "closed locally"
            case .remote: "closed by the peer"
            case .failed(let error): "failed: \(error)"
            }
        }
    }

    /// What ``write(_:)-([UInt8])`` did with the bytes (see ``ComposeApp/WriteResult``).
    public typealias WriteResult = ComposeApp.WriteResult

    /// Each chunk of bytes received. Chunks are not remembered: its
    /// `lastValue` is always `nil`, and `++=` calls back for new chunks only.
    public let emitter = Emitter<ByteChunk>()
    /// Sent once when the socket is closed.
    public let didClose = Emitter<CloseReason>()
    /// Sent when a queue that reached ``highWaterMark`` is back at
    /// ``lowWaterMark``: writing may go on. Also sent when the connection
    /// closes while full: nothing waits for it any more (a relay's source,
    /// frames paced by it), and its writes say ``WriteResult/closed``.
    public let didBecomeWritable = SignalEmitter()
    /// Sent when the peer ends its side (half-close or close); with
    /// ``closesOnEndOfInput`` the connection then closes.
    public let didReachEnd = SignalEmitter()
    /// Sent once when the app's shutdown begins to drain (see
    /// `ShutdownCoordinator.Phase.draining`), to a connection a
    /// ``TCPServer`` or ``UnixServer`` of the app accepted: the moment to
    /// say goodbye and ``close()``. The app runs on meanwhile (reads,
    /// writes, timers); the connection is closed for it once
    /// ``StartupConfiguration/drainTimeout`` has passed. A connection
    /// whose `willDrain` nobody observes is closed at once instead (its
    /// queue written out). Not to be confused with ``didBecomeWritable`` (the write
    /// queue emptied).
    ///
    /// ```swift
    /// connection.willDrain += {
    ///     connection.writeLine("The server is shutting down. Goodbye!")
    ///     connection.close()
    /// }
    /// ```
    public let willDrain = SignalEmitter()
    /// Sent once when a read or write fails, just before the connection
    /// closes with ``CloseReason/failed(_:)``. A peer that went away
    /// (`EPIPE` when writing to a peer that closed, `ECONNRESET` when it
    /// reset) is reported here like any other failure; it is logged at
    /// debug level only, since any client may do it.
    public let errors = Emitter<LoopError>()

    /// The peer's address (`127.0.0.1:53122`; for a Unix domain socket
    /// `unix:` and the socket file's path, `unix:/run/app.sock`).
    public let remoteAddress: String
    /// Bytes waiting to be written: batched for the end of this loop turn,
    /// or queued for the socket.
    public var queuedBytes: Int { inFlight + batch.count }
    /// The queue size at which writes report ``WriteResult/full`` (and
    /// reading pauses, with ``pausesReadingWhenFull``). 1 MiB by default.
    public var highWaterMark: Int {
        get { highWater }
        set { highWater = newValue }
    }
    /// Once full, the queue size at which ``didBecomeWritable`` is sent and reading
    /// resumes. 256 KiB by default.
    public var lowWaterMark = 256 << 10
    /// How much may wait for a peer that is slow to read, and for how long
    /// (see ``SendQueueLimits``): by default a peer must read at least
    /// 64 KiB every 30 s while more than 4 MiB waits, and no write may take
    /// the queue past 64 MiB. ``SendQueueLimits/unlimited`` for no limit.
    /// Takes effect at the next write.
    ///
    /// ```swift
    /// connection.sendQueueLimits = SendQueueLimits(soft: 64 << 10, hard: 256 << 10)
    /// ```
    public var sendQueueLimits: SendQueueLimits = .default {
        didSet { queueThreshold = sendQueueLimits.threshold }
    }
    /// The hard limit of ``sendQueueLimits``: a write that would take the
    /// queue past it cuts the peer off at once, as this property did
    /// before the soft limit came. Setting it sets only the hard limit.
    @available(*, deprecated, message: "use sendQueueLimits.hard (the limit that cuts at once), or sendQueueLimits to judge the peer's reading")
    public var maximumQueuedBytes: Int {
        get { sendQueueLimits.hard }
        set { sendQueueLimits.hard = newValue }
    }
    /// The most bytes that waited at once (``queuedBytes`` after a write
    /// that left bytes waiting) since the connection opened: what its peer
    /// made the process hold. Never more than the hard limit of
    /// ``sendQueueLimits``.
    public var peakQueuedBytes: Int { peakQueued }
    /// How long ``close()`` waits for the peer to read the queue before it
    /// cuts it off (reset, ``LoopError/Code/sendQueueExceeded``). 2 s by
    /// default, on the app's clock.
    public var closeFlushTimeout: Duration = .seconds(2)
    /// Closes the connection when the peer sends nothing for this long (on
    /// the app's clock), with a ``LoopError/Code/timedOut`` error on
    /// ``errors``; `nil` (the default) for never. Only what is received
    /// counts: a peer that only reads is idle. Set it where the connection
    /// is stored (its component's `observers` or `didAppear`).
    ///
    /// ```swift
    /// connection.idleTimeout = .seconds(300)
    /// ```
    public var idleTimeout: Duration? {
        didSet { watchIdleness() }
    }
    /// Whether reading pauses while the write queue is full.
    public var pausesReadingWhenFull = true
    /// Whether the connection closes when the peer ends its side.
    public var closesOnEndOfInput = true
    /// Whether the connection is open (not closing or closed).
    public var isOpen: Bool { open }

    let transport: Transport

    // The write path's state, read on every write. `@exclusivity(unchecked)`
    // drops the dynamic exclusivity checks (about 150 instructions per
    // echoed message): every access is on the main actor, in this file,
    // and none stays open across a call that could reach the connection
    // again (`batch` is copied out before it is written; `inFlight` changes
    // only in plain statements), so no two accesses can overlap.

    /// Bytes handed to libuv's write queue and not yet written.
    #if DEBUG
    private var inFlight = 0
    #else
    @exclusivity(unchecked) private var inFlight = 0
    #endif
    /// Small writes made after the first one of a loop turn; they leave
    /// together, in one write call, at the end of the turn.
    #if DEBUG
    private var batch: [UInt8] = []
    #else
    @exclusivity(unchecked) private var batch: [UInt8] = []
    #endif
    /// ComposeFraming's buffers of the app this connection belongs to (the
    /// scratch buffer its `write { }` encodes into), found once: a strong
    /// reference to an object of the app's, which holds none back.
    /// (A computed property: another module's access to a stored one
    /// would check exclusivity dynamically, `@exclusivity(unchecked)` or
    /// not.)
    package var framingBuffers: AnyObject? {
        get { framingBuffersStorage }
        set { framingBuffersStorage = newValue }
    }
    #if DEBUG
    private var framingBuffersStorage: AnyObject?
    #else
    @exclusivity(unchecked) private var framingBuffersStorage: AnyObject?
    #endif
    /// Whether this connection wrote in the current loop turn (and so
    /// waits for its end, when the batch leaves).
    #if DEBUG
    private var awaitsEndOfTurn = false
    #else
    @exclusivity(unchecked) private var awaitsEndOfTurn = false
    #endif
    /// The loop turn in which the last write went to the socket at once
    /// (``TurnState/turn``): a second write in that turn is batched. The
    /// first write of a turn needs no end-of-turn registration: with
    /// nothing batched, the turn's end would have nothing to do.
    #if DEBUG
    private var directWriteTurn = -1
    #else
    @exclusivity(unchecked) private var directWriteTurn = -1
    #endif
    private var isReading = false
    /// Whether the owner wants to read (``start()`` until ``pauseReading()``).
    private(set) var wantsReading = false
    /// Whether the queue reached ``highWaterMark`` and has not drained to
    /// ``lowWaterMark`` yet: writes should wait for ``didBecomeWritable``.
    public var isFull: Bool { full }
    /// The storage of ``isOpen`` and ``isFull``: public stored properties
    /// (which another module could access) would pay a dynamic exclusivity
    /// check on every write. These four are unchecked on the grounds given
    /// above ``inFlight`` (TCPConnection+Drain.swift only reads them, in
    /// plain statements).
    #if DEBUG
    private var open = true
    #else
    @exclusivity(unchecked) private var open = true
    #endif
    #if DEBUG
    private var full = false
    #else
    @exclusivity(unchecked) private var full = false
    #endif
    /// Whether ``close()`` waits for the queue to be written out.
    #if DEBUG
    private(set) var closeAfterFlush = false
    #else
    @exclusivity(unchecked) private(set) var closeAfterFlush = false
    #endif
    #if DEBUG
    private var writeIsShut = false
    #else
    @exclusivity(unchecked) private var writeIsShut = false
    #endif
    // The send queue's limits: read and written only when a write leaves
    // bytes waiting, or one that waited is done, never on the common case
    // (so checked, unlike the fields above).

    /// ``SendQueueLimits/threshold`` of ``sendQueueLimits``: a write that
    /// takes the queue past it takes the slow path (hard limit, judgement).
    private var queueThreshold = SendQueueLimits.default.threshold
    /// The storage of ``highWaterMark`` and ``peakQueuedBytes``, read by
    /// every write that leaves bytes waiting (each batched reply to a
    /// pipelining client): unchecked on the grounds given above ``inFlight``
    /// (changed only in plain statements).
    #if DEBUG
    private var highWater = 1 << 20
    private var peakQueued = 0
    #else
    @exclusivity(unchecked) private var highWater = 1 << 20
    @exclusivity(unchecked) private var peakQueued = 0
    #endif
    /// The bytes of queued writes the socket has finished (their write
    /// callbacks ran), plus those of the batch it took at once: with what
    /// it took of the writes in flight, what the peer read
    /// (``peerReadBytes``).
    private var completedBytes = 0
    /// The peer's judgement while the queue is above the soft limit.
    private var judgement: SendQueueJudgement?
    private var closeReason: CloseReason?
    private var lineSplitter: LineSplitter?
    /// The frames of ComposeFraming's `frames(using:)`, once asked for
    /// (TCPConnection+Frames.swift). Read by the write path's common case;
    /// unchecked on the grounds given above ``inFlight`` (set once, in
    /// `decodeFrames`, in a plain statement).
    #if DEBUG
    var frameDelivery: FrameDelivery?
    #else
    @exclusivity(unchecked) var frameDelivery: FrameDelivery?
    #endif
    /// The idle check (see ``idleTimeout``) and what it watches.
    private var idleCheck: (action: ScheduledAction, scheduler: any Scheduler)?
    private var idleWatch: Subscription?
    private var lastReceived: Duration = .zero
    /// The timer of ``closeFlushTimeout``, while a close waits for the queue.
    private var flushDeadline: (action: ScheduledAction, scheduler: any Scheduler)?
    /// The shutdown that drains it (its listener's app), until it closes.
    weak var drainingShutdown: ShutdownCoordinator?

    init(transport: Transport) {
        self.transport = transport
        remoteAddress = transport.remoteAddress
        transport.connect(to: self)
    }

    isolated deinit {
        // Nobody is left to tell: drop the close notification first, so the
        // close callback (which may come after this deinit) never reaches us.
        transport.disconnect()
        frameDelivery?.close()
        cancelFlushDeadline()
        judgement?.end()
        if let (action, scheduler) = idleCheck { scheduler.cancel(action) }
        if !transport.isClosing {
            transport.close()
        }
        drainingShutdown?.connectionDidClose(ObjectIdentifier(self))
    }

    /// Bytes received, as an emitter (the connection itself is one too).
    public var received: Emitter<ByteChunk> { emitter }

    /// Each line received (UTF-8, without `\n` or `\r\n`); a final line
    /// without a newline is sent when the peer ends its side.
    ///
    /// At most the loop's line budget (1,024 lines) is sent per loop turn:
    /// past it the connection stops reading, and the rest of what it read
    /// is sent, in order, from the next turn on, before anything newer (see
    /// ``received``, which is not held back). So a client that floods short
    /// lines cannot hold the app.
    ///
    /// A line longer than ``maximumLineLength`` closes the connection: the
    /// lines before it are sent, then reading stops, a
    /// ``LoopError/Code/lineTooLong`` error (naming the peer and the limit)
    /// is logged and sent on ``errors``, and the connection closes (after
    /// writing out its queue) with ``CloseReason/failed(_:)``. At most the
    /// limit plus one read is ever buffered for a line.
    public var lines: Emitter<String> {
        if let lineSplitter { return lineSplitter.lines }
        let splitter = LineSplitter(limit: maximumLineLength) { [weak self] in self?.lineTooLong() }
        if let handle = transport.streamHandle { splitter.read(from: handle) }
        lineSplitter = splitter
        emitter += { bytes in splitter.feed(bytes) }
        return splitter.lines
    }

    /// The longest line ``lines`` accepts (64 KiB unless set; see
    /// ``LineLengthLimit``). Takes effect for the bytes received next.
    ///
    /// ```swift
    /// connection.maximumLineLength = 4096
    /// ```
    public var maximumLineLength: LineLengthLimit = .default {
        didSet { lineSplitter?.limit = maximumLineLength }
    }

    /// A line was longer than ``maximumLineLength``: logged once, sent on
    /// ``errors``, then the connection closes.
    private func lineTooLong() {
        closeForBadInput(.lineTooLong("TCPConnection.lines", limit: maximumLineLength.bytes ?? 0, context: remoteAddress))
    }

    /// The input broke a limit or its protocol (a line or a frame too long,
    /// a malformed frame): logged once, sent on ``errors``, then the
    /// connection closes, writing out its queue (a last reply an observer
    /// of ``errors`` wrote goes out too).
    func closeForBadInput(_ error: LoopError) {
        guard isOpen, !closeAfterFlush else { return }
        logger.warning("TCP connection \(remoteAddress): \(error)")
        closeReason = .failed(error)
        pauseReading()
        errors.send(error)
        close()
    }

    // MARK: Reading

    /// Starts reading (done for you when the connection's component appears).
    public func start() {
        wantsReading = true
        updateReading()
        frameDelivery?.ownerResumed()
    }

    /// Stops reading until ``start()`` (as ``pauseReading()``).
    public func stop() {
        pauseReading()
    }

    /// Stops reading until ``resumeReading()``.
    public func pauseReading() {
        wantsReading = false
        updateReading()
    }

    /// Resumes reading after ``pauseReading()``.
    public func resumeReading() {
        start()
    }

    func updateReading() {
        let shouldRead = isOpen && wantsReading && !(isFull && pausesReadingWhenFull) && !(frameDelivery?.holdsInput ?? false)
        guard shouldRead != isReading else { return }
        if shouldRead {
            do {
                try transport.startReading()
                isReading = true
            } catch {
                fail(error)
            }
        } else {
            transport.stopReading()
            isReading = false
        }
    }

    func inputEnded(_ error: LoopError?) {
        isReading = false
        if let error {
            fail(error)
            return
        }
        lineSplitter?.finish()
        frameDelivery?.finish()
        didReachEnd.send()
        if closesOnEndOfInput {
            closeReason = closeReason ?? .remote
            close()
        }
    }

    // MARK: Writing

    /// Writes `bytes` (see the type's documentation for back-pressure).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> WriteResult {
        bytes.withUnsafeBytesInline { write($0) }
    }

    /// Writes a chunk received (an echo copies nothing).
    @discardableResult
    public func write(_ chunk: ByteChunk) -> WriteResult {
        // Not `chunk.withUnsafeBytes { write($0) }`: a main-actor closure
        // handed to a nonisolated function checks the executor on each call.
        // The write path inlined (an echo's hot path: no second call).
        writeInline(chunk.bytes)
    }

    /// Writes the UTF-8 bytes of `text`.
    @discardableResult
    public func write(_ text: String) -> WriteResult {
        var text = text
        return text.withUTF8Inline { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `text` followed by `\n`.
    @discardableResult
    public func writeLine(_ text: String) -> WriteResult {
        write(text + "\n")
    }

    /// Writes the bytes in `buffer` (copied if they must wait).
    ///
    /// The first write of a loop turn goes to the socket at once; the small
    /// ones after it in the same turn are batched and leave together at the
    /// end of the turn, in one write call, so writing many lines costs one
    /// system call rather than one each.
    @discardableResult
    public func write(_ buffer: UnsafeRawBufferPointer) -> WriteResult {
        writeInline(buffer)
    }

    /// ``write(_:)-(UnsafeRawBufferPointer)``, inlined into it and into
    /// ``write(_:)-(ByteChunk)``.
    @inline(__always)
    private func writeInline(_ buffer: UnsafeRawBufferPointer) -> WriteResult {
        // Only while the app counts or records sends: three loads otherwise.
        if emitter.isTraced { traceWrite(buffer) }
        // The common case, straight and inlined: a socket that is writable,
        // with nothing waiting (nothing in flight, and nothing batched,
        // which only a write that waits for the turn's end leaves), and the
        // turn's first write. Anything else takes the general path below,
        // which decides the same way.
        if open, !closeAfterFlush, !writeIsShut, !awaitsEndOfTurn, inFlight == 0, buffer.count > 0,
           let turn = transport.socketTurn, directWriteTurn != turn {
            assert(batch.isEmpty, "bytes batched without waiting for the turn's end")
            directWriteTurn = turn
            // A reply to a frame with more input read behind it (a
            // pipelining client): the replies to the frames that follow
            // join it in the batch, and all leave in one write call at the
            // turn's end, rather than this one now and the rest then.
            if let frameDelivery, frameDelivery.isDeliveringWithInputLeft {
                return writeBatchingOrQueueing(buffer)
            }
            let result = transport.tryWriteAtOnce(buffer)
            if result == buffer.count { return .written }
            return writeRest(of: buffer, afterTrying: result)
        }
        return writeBatchingOrQueueing(buffer)
    }

    /// The fast path's socket took part of `buffer` or none (`result`, from
    /// ``StreamHandle/tryWriteAtOnce(_:)``): the rest is queued.
    @inline(never)
    private func writeRest(of buffer: UnsafeRawBufferPointer, afterTrying result: Int32) -> WriteResult {
        var rest = buffer
        if result >= 0 {
            rest = UnsafeRawBufferPointer(rebasing: buffer[Int(result)...])
        } else if !StreamHandle.wouldBlock(result) {
            fail(LoopError("uv_try_write", code: result))
            return .closed
        }
        return queue(rest)
    }

    /// ``write(_:)-(UnsafeRawBufferPointer)`` in general: closed, empty,
    /// batched, behind a queue, or simulated.
    @inline(never)
    private func writeBatchingOrQueueing(_ buffer: UnsafeRawBufferPointer) -> WriteResult {
        guard isOpen, !closeAfterFlush, !writeIsShut else { return .closed }
        guard buffer.count > 0 else { return isFull ? .full : .written }
        if let handle = transport.streamHandle {
            let turn = handle.turnState.pointee.turn
            if awaitsEndOfTurn || inFlight > 0 || !batch.isEmpty || directWriteTurn == turn {
                if batch.count + buffer.count <= Self.batchLimit {
                    if queuedBytes + buffer.count > queueThreshold, let refused = queuePassesThreshold(adding: buffer.count) {
                        return refused
                    }
                    // A batch starts with room for several replies: not
                    // grown from nothing, an allocation each doubling, in
                    // every turn (a flush hands the batch's memory on).
                    if batch.isEmpty { batch.reserveCapacity(Swift.min(Self.batchLimit, Swift.max(1024, 4 * buffer.count))) }
                    batch.append(contentsOf: buffer)
                    endTurnLater(on: handle.loop)
                    return checkQueue()
                }
                flushBatch()
                guard isOpen else { return .closed }
            } else {
                // The turn's first write: to the socket at once, below.
                directWriteTurn = turn
            }
        }
        var rest = buffer
        if inFlight == 0 {
            do {
                let written = try transport.tryWrite(buffer)
                if written == buffer.count { return .written }
                rest = UnsafeRawBufferPointer(rebasing: buffer[written...])
            } catch {
                fail(error)
                return .closed
            }
        }
        return queue(rest)
    }

    /// Queues `rest`, what the socket did not take at once, behind the
    /// writes in flight.
    private func queue(_ rest: UnsafeRawBufferPointer) -> WriteResult {
        if queuedBytes + rest.count > queueThreshold, let refused = queuePassesThreshold(adding: rest.count) {
            return refused
        }
        do {
            try transport.write(copying: rest)
        } catch {
            fail(error)
            return .closed
        }
        inFlight += rest.count
        return checkQueue()
    }

    /// The most bytes batched for the end of a turn; a write that would
    /// pass it sends the batch first.
    static let batchLimit = 64 * 1024

    /// What a write that left bytes waiting returns: `.full` at
    /// ``highWaterMark``. Notes the peak.
    private func checkQueue() -> WriteResult {
        if queuedBytes > peakQueued { peakQueued = queuedBytes }
        if queuedBytes >= highWaterMark {
            full = true
            updateReading()
            return .full
        }
        return inFlight == 0 ? .written : .queued
    }

    private func endTurnLater(on loop: EventLoop) {
        guard !awaitsEndOfTurn else { return }
        awaitsEndOfTurn = true
        loop.atEndOfTurn(self)
    }

    /// Hands the batch to the socket: what it takes at once, the rest to
    /// its queue, in one write call each.
    private func flushBatch() {
        guard !batch.isEmpty else { return }
        let bytes = batch
        batch = []
        bytes.withUnsafeBytes { buffer in
            var rest = buffer
            do throws(LoopError) {
                if inFlight == 0 {
                    let written = try transport.tryWrite(buffer)
                    completedBytes &+= written
                    rest = UnsafeRawBufferPointer(rebasing: buffer[written...])
                }
                if rest.count > 0 {
                    try transport.write(copying: rest)
                    inFlight += rest.count
                }
            } catch {
                fail(error)
            }
        }
    }

    func writeCompleted(_ count: Int, _ error: LoopError?) {
        inFlight -= count
        if let error {
            if error.kind != .cancelled { fail(error) }
            return
        }
        completedBytes &+= count
        if queuedBytes == 0, closeAfterFlush {
            cancelFlushDeadline()
            transport.close()
            return
        }
        if isFull, queuedBytes <= lowWaterMark {
            full = false
            updateReading()
            didBecomeWritable.send()
        }
        if judgement != nil, queuedBytes <= sendQueueLimits.soft {
            endJudgement()
        }
    }

    // MARK: Judging the peer (see SendQueueLimits)

    /// What the peer has read since the connection opened: the bytes that
    /// left the queue for the socket.
    private var peerReadBytes: Int {
        completedBytes + inFlight - transport.unwrittenBytes
    }

    /// A write of `count` bytes takes the queue past ``queueThreshold``:
    /// past the hard limit, the peer is cut off and the write refused
    /// (`.closed`); above the soft limit, the judgement starts, if it has
    /// not (`nil`: the write goes on).
    @inline(never)
    private func queuePassesThreshold(adding count: Int) -> WriteResult? {
        let limits = sendQueueLimits
        if queuedBytes + count > limits.hard {
            let why = SendQueueJudgement.hardLimitReason(judgement, limits: limits, queued: queuedBytes, adding: count, read: peerReadBytes)
            cutOff(why)
            return .closed
        }
        if judgement == nil, queuedBytes + count > limits.soft {
            startJudgement()
        }
        return nil
    }

    /// The queue passed the soft limit: the first grace period starts.
    private func startJudgement() {
        guard let scheduler = (emitter.ownerContext ?? AppContext.current)?.scheduler else { return }
        let now = scheduler.now
        let read = peerReadBytes
        judgement = SendQueueJudgement(
            since: now,
            readAtSince: read,
            periodStart: now,
            readAtPeriodStart: read,
            check: scheduleJudging(on: scheduler),
            scheduler: scheduler
        )
    }

    private func scheduleJudging(on scheduler: any Scheduler) -> ScheduledAction {
        scheduler.schedule(after: sendQueueLimits.gracePeriod) { [weak self] in self?.judgePeer() }
    }

    /// A grace period ended with the queue above the soft limit: a peer
    /// that read at least the minimum progress starts another; one that
    /// did not is cut off.
    private func judgePeer() {
        guard var judgement, isOpen || closeAfterFlush else { return }
        let limits = sendQueueLimits
        guard queuedBytes > limits.soft, limits.soft < limits.hard else {
            self.judgement = nil
            return
        }
        let now = judgement.scheduler.now
        let read = peerReadBytes
        if read - judgement.readAtPeriodStart >= limits.minimumProgress {
            judgement.periodStart = now
            judgement.readAtPeriodStart = read
            judgement.check = scheduleJudging(on: judgement.scheduler)
            self.judgement = judgement
            return
        }
        self.judgement = nil
        cutOff(judgement.softLimitReason(limits: limits, queued: queuedBytes, read: read, now: now))
    }

    private func endJudgement() {
        judgement?.end()
        judgement = nil
    }

    /// Cuts off a peer that does not read (`why` says how it showed):
    /// the connection is reset, so the kernel drops what it held for it.
    private func cutOff(_ why: String) {
        fail(.sendQueueExceeded(why, peer: remoteAddress, reset: transport.resets), reset: true)
    }

    // MARK: Closing

    /// Half-closes: no more writes; the peer sees end of input once the
    /// queue is written out. Reading goes on.
    public func shutdownWrite() {
        guard isOpen, !writeIsShut else { return }
        flushBatch()
        guard isOpen else { return }
        writeIsShut = true
        do {
            try transport.shutdown()
        } catch {
            fail(error)
        }
    }

    /// Stops reading, writes out the queue, then closes. Idempotent.
    public func close() {
        guard isOpen, !closeAfterFlush else { return }
        closeReason = closeReason ?? .local
        wantsReading = false
        updateReading()
        flushBatch()
        guard isOpen else { return }
        if queuedBytes > 0 {
            closeAfterFlush = true
            armFlushDeadline()
        } else {
            open = false
            transport.close()
        }
    }

    /// Closes at once; queued bytes are dropped.
    public func abort() {
        batch = []
        closeReason = closeReason ?? .local
        open = false
        transport.close()
    }

    private func watchIdleness() {
        if let (action, scheduler) = idleCheck { scheduler.cancel(action) }
        idleCheck = nil
        guard let timeout = idleTimeout, isOpen, let scheduler = (emitter.ownerContext ?? AppContext.current)?.scheduler else {
            idleWatch?.cancel()
            idleWatch = nil
            return
        }
        if idleWatch == nil {
            // An observer, so that connections without a timeout pay nothing.
            idleWatch = emitter.observe { [weak self] _ in self?.lastReceived = scheduler.now }
        }
        lastReceived = scheduler.now
        checkIdleness(after: timeout, on: scheduler)
    }

    private func checkIdleness(after delay: Duration, on scheduler: any Scheduler) {
        let action = scheduler.schedule(after: delay) { [weak self] in
            guard let self, let timeout = idleTimeout, isOpen else { return }
            idleCheck = nil
            let idle = scheduler.now - lastReceived
            if idle >= timeout {
                fail(LoopError("uv_read", code: UV_ETIMEDOUT.rawValue, context: "\(remoteAddress), idle for \(timeout) (idleTimeout)"))
            } else {
                checkIdleness(after: timeout - idle, on: scheduler)
            }
        }
        idleCheck = (action, scheduler)
    }

    private func armFlushDeadline() {
        guard let scheduler = (emitter.ownerContext ?? AppContext.current)?.scheduler else { return }
        let timeout = closeFlushTimeout
        let readAtClose = peerReadBytes
        let action = scheduler.schedule(after: timeout) { [weak self] in
            guard let self, closeAfterFlush else { return }
            flushDeadline = nil
            cutOff(SendQueueJudgement.closeFlushReason(queued: queuedBytes, timeout: timeout, read: peerReadBytes - readAtClose))
        }
        flushDeadline = (action, scheduler)
    }

    private func cancelFlushDeadline() {
        guard let (action, scheduler) = flushDeadline else { return }
        flushDeadline = nil
        scheduler.cancel(action)
    }

    /// Closes the connection for `error` (sent on ``errors``, logged);
    /// with `reset`, resets it (see ``Transport/reset()``).
    private func fail(_ error: LoopError, reset: Bool = false) {
        guard isOpen || closeAfterFlush else { return }
        cancelFlushDeadline()
        endJudgement()
        if error.isPeerGone {
            logger.debug("TCP connection \(remoteAddress): \(error)")
        } else {
            logger.warning("TCP connection \(remoteAddress): \(error)")
        }
        closeReason = .failed(error)
        open = false
        closeAfterFlush = false
        batch = []
        if reset { transport.reset() } else { transport.close() }
        errors.send(error)
    }

    func transportClosed() {
        cancelFlushDeadline()
        endJudgement()
        if let (action, scheduler) = idleCheck { scheduler.cancel(action) }
        idleCheck = nil
        open = false
        isReading = false
        inFlight = 0
        batch = []
        frameDelivery?.close()
        // A full queue that closed holds nothing back any more: what waits
        // for it (a relay's source, frames paced by it) goes on, and its
        // writes say `.closed`.
        if full {
            full = false
            didBecomeWritable.send()
        }
        // Before didClose: its observers may release the connection. The
        // drain ends on a later turn, after them.
        drainDidEnd()
        didClose.send(closeReason ?? .local)
    }

    // MARK: LoopResource

    /// Always `true`: a connection starts reading when its component appears.
    public var startsWithComponent: Bool { true }

    /// Always `false`: a connection goes on reading while its component is
    /// inactive; it closes when the component is destroyed.
    public var stopsWithComponent: Bool { false }

    /// The emitters its component adopts (``lines`` if it was asked for
    /// before the component was bound).
    public var offeredEmitters: [any EmitterProtocol] {
        var emitters: [any EmitterProtocol] = [emitter, didClose, didBecomeWritable, didReachEnd, errors, willDrain]
        if let lineSplitter { emitters.append(lineSplitter.lines) }
        if let frameDelivery { emitters.append(frameDelivery.buffering.frames) }
        return emitters
    }
}

/// Turns received chunks into lines for ``TCPConnection/lines``, within the
/// loop's line budget; stops at the first line over the limit and reports
/// it.
@MainActor
private final class LineSplitter {
    let lines: Emitter<String>
    private let delivery: LineDelivery

    init(limit: LineLengthLimit, tooLong: @escaping @MainActor () -> Void) {
        let lines = Emitter<String>()
        self.lines = lines
        delivery = LineDelivery(LineBuffer(limit: limit, overflow: .stop)) { piece in
            switch piece {
            case .line(let line): lines.send(line)
            case .tooLong: tooLong()
            }
        }
    }

    /// The socket whose reading the line budget holds.
    func read(from handle: StreamHandle) {
        delivery.attach(to: handle)
    }

    var limit: LineLengthLimit {
        get { delivery.splitter.limit.map { .bytes($0) } ?? .unlimited }
        set { delivery.splitter.limit = newValue.bytes }
    }

    func feed(_ bytes: ByteChunk) {
        delivery.append(bytes.bytes)
    }

    func finish() {
        delivery.finish()
    }
}

extension TCPConnection: EndOfTurnWork {
    func endOfTurn() {
        awaitsEndOfTurn = false
        flushBatch()
    }
}

extension TCPConnection: NamedEmitters {
    /// ``lines`` and the frames, once made: the tree and event paths call
    /// them `connection.lines` and `connection.frames`, not `<emitter>`.
    package var namedEmitters: [(name: String, emitter: any EmitterProtocol)] {
        var named: [(name: String, emitter: any EmitterProtocol)] = []
        if let lineSplitter { named.append(("lines", lineSplitter.lines)) }
        if let frameDelivery { named.append(("frames", frameDelivery.buffering.frames)) }
        return named
    }
}
