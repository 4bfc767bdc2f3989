internal import CLibUV
import Compose

/// A `uv_stream_t`: what TCP sockets (``TCPHandle``, which adds what is
/// TCP's), child process pipes and standard input have in common. One set of
/// reading, writing and shutdown calls and one set of C callbacks serves
/// them all.
///
/// Made with ``init(loop:)`` it is a `uv_pipe_t` for a child's standard
/// input, output or error (`uv_spawn` opens it, a socket pair on Linux);
/// with ``init(loop:fileDescriptor:)`` an existing file descriptor (standard
/// input) as a `uv_tty_t` or a pipe. Pipes and standard input use the
/// closure-taking calls of `StreamHandle+Pipes.swift`, which adapt these
/// callbacks.
///
/// **Reading.** Every stream of a loop reads into the loop's read buffer
/// (``EventLoop/readBuffer(of:)``): libuv reads one stream at a time on the
/// loop thread and each chunk is delivered before the next read, and a new
/// buffer is made only when a delivered ``ByteChunk`` was kept (checked
/// right after the delivery).
///
/// **Requests.** `uv_write_t` and `uv_shutdown_t` are allocated per call and
/// freed in their completion callback, which libuv always calls, with
/// `UV_ECANCELED` when the handle closes first. They do not retain the
/// handle: libuv calls every pending request callback before the close
/// callback that releases it, so the owner is still there (and, being
/// closing, is not called).
///
/// Stream calls are `final`: a read or write on a ``TCPHandle`` is a direct
/// call, as on the hot path of an echo.
@MainActor
class StreamHandle: LoopHandle {
    /// Each chunk read: a view of the loop's read buffer.
    final var onRead: (@MainActor (ByteChunk) -> Void)?
    /// The emitter a connection's chunks go to, sent to directly instead
    /// of through ``onRead`` (no closure context, no closure call on each
    /// read). Held strongly, so that it outlives a delivery whose observer
    /// releases the connection; it holds nothing of the handle. Set once,
    /// before reading starts (``TCPConnection/Transport/connect(to:)``),
    /// and dropped only in the close callback (``releaseAfterClose()``),
    /// which libuv never runs during a read callback: so a delivery may
    /// send through ``unretainedReceiver`` without holding it.
    final var receiver: Emitter<ByteChunk>? {
        didSet { unretainedReceiver = receiver?.unretained }
    }
    /// ``receiver``'s storage, unretained, for the read callback.
    // @exclusivity(unchecked): read on every chunk; set only in plain
    // statements on the main actor, and no access spans a call.
    #if DEBUG
    private final var unretainedReceiver: Unmanaged<AnyObject>?
    #else
    @exclusivity(unchecked) private final var unretainedReceiver: Unmanaged<AnyObject>?
    #endif
    /// End of input (`nil`) or a read error.
    final var onEnd: (@MainActor (LoopError?) -> Void)?
    /// A queued write finished (its byte count, and an error if it failed).
    final var onWriteCompleted: (@MainActor (Int, LoopError?) -> Void)?
    /// A ``shutdown()`` finished (with an error if it failed).
    final var onShutdown: (@MainActor (LoopError?) -> Void)?

    /// Whether the owner wants to read (``startReading()`` until
    /// ``stopReading()``), whether or not a budget paused it.
    private final var wantsToRead = false
    /// Whether a budget stopped reading until the next turn (see
    /// ``holdUntilNextTurn()``).
    private final var isHeld = false
    /// The lines read from this stream that its owner has not delivered
    /// yet (see ``LineDelivery``): delivered before the stream reads again.
    final weak var backlog: LineDelivery?
    /// Bytes delivered in the loop turn ``budgetTurn``.
    private final var readThisTurn = 0
    private final var budgetTurn = 0

    /// A `uv_pipe_t`, for a child process's standard input, output or error.
    convenience init(loop: EventLoop) throws(LoopError) {
        try self.init(loop: loop, size: MemoryLayout<uv_pipe_t>.size, operation: "uv_pipe_init") { raw in
            uv_pipe_init(loop.uv, raw.assumingMemoryBound(to: uv_pipe_t.self), 0)
        }
    }

    /// Opens an existing file descriptor (standard input): as a TTY when it
    /// is a terminal, as a pipe otherwise.
    convenience init(loop: EventLoop, fileDescriptor fd: Int32) throws(LoopError) {
        if uv_guess_handle(fd) == UV_TTY {
            try self.init(loop: loop, size: MemoryLayout<uv_tty_t>.size, operation: "uv_tty_init") { raw in
                uv_tty_init(loop.uv, raw.assumingMemoryBound(to: uv_tty_t.self), fd, 1)
            }
        } else {
            try self.init(loop: loop)
            let result = uv_pipe_open(raw.assumingMemoryBound(to: uv_pipe_t.self), fd)
            if result < 0 {
                close()
                throw LoopError("uv_pipe_open", code: result, context: "file descriptor \(fd)")
            }
        }
    }

    final var stream: UnsafeMutablePointer<uv_stream_t> { compose_uv_stream(raw) }

    /// Whether the stream is a connection (a ``TCPConnection``'s socket):
    /// counted as open (``LoopCounters/connectionsOpened``) until it closes.
    final var countsAsConnection = false {
        didSet {
            guard countsAsConnection != oldValue else { return }
            if countsAsConnection {
                loop.counters.pointee.connectionsOpened &+= 1
            } else {
                loop.counters.pointee.connectionsClosed &+= 1
            }
        }
    }

    override func releaseCallbacks() {
        // Closing: the connection no longer counts as open.
        countsAsConnection = false
        onRead = nil
        // Not `receiver`: a delivery running now may be sending through it
        // (an observer closed the connection); it goes in the close
        // callback (releaseAfterClose).
        onEnd = nil
        onWriteCompleted = nil
        onShutdown = nil
    }

    override func releaseAfterClose() {
        receiver = nil
    }

    // MARK: Reading

    /// Reads until ``stopReading()``: each chunk goes to ``onRead``, the end
    /// of input or a failure to ``onEnd``. While a budget holds the stream,
    /// or lines read before wait in its ``backlog``, reading starts at the
    /// next turn (after the backlog).
    final func startReading() throws(LoopError) {
        assertOnLoopThread()
        guard !isClosing else { return }
        wantsToRead = true
        guard !isHeld else { return }
        if let backlog, backlog.hasBacklog {
            holdUntilNextTurn()
            return
        }
        try LoopError.check(uv_read_start(stream, streamHandleAllocate, streamHandleReadCallback), "uv_read_start")
    }

    final func stopReading() {
        assertOnLoopThread()
        guard !isClosing else { return }
        wantsToRead = false
        uv_read_stop(stream)
    }

    // MARK: Fairness

    /// Counts `count` bytes against this turn's read budget
    /// (``EventLoop/readBudgetPerTurn``); past it, stops reading until the
    /// next turn, so one flooding stream cannot hold the loop: timers,
    /// signals and other streams are served in between.
    @inline(__always)
    final func spendReadBudget(_ count: Int) {
        let turn = turnState.pointee.turn
        var spent = count
        if budgetTurn == turn {
            spent &+= readThisTurn
        } else {
            budgetTurn = turn
        }
        readThisTurn = spent
        #if DEBUG
        if spent > loop.largestReadInTurn { loop.largestReadInTurn = spent }
        #endif
        guard spent >= turnState.pointee.readBudgetPerTurn, wantsToRead else { return }
        holdUntilNextTurn()
    }
}

extension StreamHandle: TurnBudgeted {
    /// Stops reading until the next turn (a budget was spent); the loop
    /// then calls ``resumeAfterBudget()``.
    final func holdUntilNextTurn() {
        guard !isHeld, !isClosing else { return }
        isHeld = true
        uv_read_stop(stream)
        loop.resumeNextTurn(self, delivering: backlog?.hasBacklog ?? false)
    }

    /// Delivers the backlog, then reads again, unless the owner stopped
    /// reading meanwhile (the backlog then waits for ``startReading()``)
    /// or some of the backlog is left for the next turn.
    final func resumeAfterBudget() {
        isHeld = false
        guard wantsToRead, !isClosing else { return }
        if let backlog, backlog.hasBacklog {
            backlog.deliverBacklog()
            guard wantsToRead, !isClosing, !isHeld else { return }
            if backlog.hasBacklog {
                holdUntilNextTurn()
                return
            }
        }
        if uv_read_start(stream, streamHandleAllocate, streamHandleReadCallback) < 0 {
            // Left for the next read to report; nothing to resume.
            wantsToRead = false
        }
    }
}

extension StreamHandle {
    // MARK: Writing

    /// Writes what the stream takes right now. Returns the bytes written
    /// (0 when it would block), or throws.
    final func tryWrite(_ bytes: UnsafeRawBufferPointer) throws(LoopError) -> Int {
        guard bytes.baseAddress != nil, bytes.count > 0 else { return 0 }
        let result = tryWriteAtOnce(bytes)
        if result < 0 {
            if Self.wouldBlock(result) { return 0 }
            throw LoopError("uv_try_write", code: result)
        }
        return Int(result)
    }

    /// ``tryWrite(_:)`` for the write path's common case, inlined into it:
    /// `bytes` is not empty, and the result is libuv's (the bytes written,
    /// or a negative error, `UV_EAGAIN` when the socket takes nothing);
    /// written bytes are counted.
    @inline(__always)
    final func tryWriteAtOnce(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        assertOnLoopThread()
        // The fields set directly: `uv_buf_init` is a call into libuv.
        var buffer = uv_buf_t(base: UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: CChar.self)), len: bytes.count)
        #if DEBUG
        loop.writeCalls &+= 1
        #endif
        let result = uv_try_write(stream, &buffer, 1)
        if result > 0 { counters.pointee.bytesWritten &+= UInt64(result) }
        return result
    }

    /// Whether `result`, from ``tryWriteAtOnce(_:)``, means only that the
    /// socket took nothing now (what ``tryWrite(_:)`` returns as 0).
    static func wouldBlock(_ result: Int32) -> Bool {
        result == UV_EAGAIN.rawValue || result == UV_ENOSYS.rawValue
    }

    /// A ``tryWriteAtOnce(_:)`` result that means "nothing written".
    static var nothingWritten: Int32 { UV_EAGAIN.rawValue }

    /// The bytes of the queued writes that the socket has not taken yet
    /// (libuv's `write_queue_size`, which a partly written request has
    /// already left in part).
    final var unwrittenBytes: Int {
        uv_stream_get_write_queue_size(stream)
    }

    /// Queues a copy of `bytes` (request and copy in one allocation);
    /// ``onWriteCompleted`` reports its end.
    final func queueWrite(copying bytes: UnsafeRawBufferPointer) throws(LoopError) {
        assertOnLoopThread()
        let header = MemoryLayout<uv_write_t>.stride
        // The request sits at the start of 16-byte-aligned memory.
        assert(MemoryLayout<uv_write_t>.alignment <= 16, "uv_write_t needs more than 16-byte alignment")
        let memory = UnsafeMutableRawPointer.allocate(byteCount: header + bytes.count, alignment: 16)
        let request = memory.assumingMemoryBound(to: uv_write_t.self)
        let payload = memory + header
        if let base = bytes.baseAddress { payload.copyMemory(from: base, byteCount: bytes.count) }
        request.pointee.data = UnsafeMutableRawPointer(bitPattern: bytes.count)
        var buffer = uv_buf_init(payload.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        #if DEBUG
        loop.writeCalls &+= 1
        #endif
        let result = uv_write(request, stream, &buffer, 1, streamHandleWrittenCallback)
        if result < 0 {
            memory.deallocate()
            throw LoopError("uv_write", code: result)
        }
    }

    /// Ends the writing side after every queued write (the peer or the
    /// child reads end of input); ``onShutdown`` reports its end.
    final func shutdown() throws(LoopError) {
        assertOnLoopThread()
        let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
        let result = uv_shutdown(request, stream, streamHandleShutDownCallback)
        if result < 0 {
            request.deallocate()
            throw LoopError("uv_shutdown", code: result)
        }
    }
}

/// Hands libuv the loop's read buffer (see ``EventLoop/readBuffer(of:)``),
/// as it is: no chunk holds it between deliveries (see
/// ``EventLoop/renewReadBufferIfKept(_:)``).
private func streamHandleAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    // Unchecked: libuv passes its handle, with its loop, and the buffer
    // to fill, never null.
    let slot = EventLoop.readBufferSlot(of: handle.unsafelyUnwrapped.pointee.loop.unsafelyUnwrapped)
    let readBuffer = slot.pointee
    // The fields set directly: `uv_buf_init` is a call into libuv.
    buffer.unsafelyUnwrapped.pointee = uv_buf_t(base: readBuffer.base.assumingMemoryBound(to: CChar.self), len: readBuffer.size)
}

/// ``streamHandleRead`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var streamHandleReadCallback: uv_read_cb { { streamHandleRead($0, $1, $2) } }

/// The read callback, on every chunk: no generic ``LoopHandle/dispatch(_:as:counted:_:_:)``
/// here, whose argument tuple and closure layers cost retains and calls;
/// the handle is borrowed (see below) and called directly, and the read
/// buffer moves into the chunk and back (no reference counting).
@MainActor private func streamHandleRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?) {
    // Unchecked: libuv passes its stream, with its loop, never null.
    let stream = stream.unsafelyUnwrapped
    guard count != 0, let data = stream.pointee.data else { return }
    let slot = EventLoop.readBufferSlot(of: stream.pointee.loop.unsafelyUnwrapped)
    // Borrowed, not retained: `data` holds the handle retained until its
    // close callback, which libuv runs after every read callback of the
    // handle (and not during one). Only streams are registered with this
    // callback (``StreamHandle/startReading()``).
    Unmanaged<StreamHandle>.fromOpaque(data).withBorrowed { owner in
        // The slot's reference moves into the delivered chunk and comes
        // back when the delivery ends, so the chunk costs no retain and
        // release. Meanwhile nothing reads the slot: libuv allocates only
        // for its next read, never during a read callback, and
        // ``EventLoop/readBuffer(of:)`` is never called during a delivery
        // (asserted in debug builds).
        slot.initialize(to: owner.didRead(count, in: slot.move()))
    }
    EventLoop.renewReadBufferIfKept(slot)
}

extension StreamHandle {
    /// A read callback: `count` bytes in `buffer` (the loop's read buffer,
    /// moved out of its slot, and returned to go back there), or the end
    /// of input or a read error (`count` < 0). Ignored once the handle is
    /// closing.
    final func didRead(_ count: Int, in buffer: consuming ReadBuffer) -> ReadBuffer {
        guard !isClosing else { return buffer }
        counters.pointee.events &+= 1
        guard count > 0 else {
            didReachEnd(count)
            return buffer
        }
        counters.pointee.bytesRead &+= UInt64(count)
        spendReadBudget(count)
        // An observer that keeps the chunk retains the buffer, which
        // ``EventLoop/renewReadBufferIfKept(_:)`` sees after the delivery.
        let chunk = ByteChunk(buffer: consume buffer, count: count)
        #if DEBUG
        loop.isDeliveringRead = true
        #endif
        if let unretainedReceiver {
            // Not kept as the emitter's last value: a kept chunk holds the
            // loop's read buffer. Unretained: see ``receiver``.
            Emitter.sendWithoutKeeping(chunk, unretained: unretainedReceiver)
        } else {
            onRead?(chunk)
        }
        #if DEBUG
        loop.isDeliveringRead = false
        #endif
        return chunk.buffer
    }

    /// The end of input (`UV_EOF`) or a read error.
    @inline(never)
    private final func didReachEnd(_ count: Int) {
        onEnd?(count == Int(UV_EOF.rawValue) ? nil : LoopError("uv_read", code: Int32(count)))
    }
}

/// ``streamHandleWritten`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var streamHandleWrittenCallback: uv_write_cb { { streamHandleWritten($0, $1) } }

@MainActor private func streamHandleWritten(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    guard let request else { return }
    let count = Int(bitPattern: request.pointee.data)
    let stream = request.pointee.handle
    UnsafeMutableRawPointer(request).deallocate()
    LoopHandle.dispatch(compose_uv_handle(stream), as: StreamHandle.self, (count, status)) { owner, written in
        let (count, status) = written
        if status >= 0 { owner.loop.counters.pointee.bytesWritten &+= UInt64(count) }
        owner.onWriteCompleted?(count, status < 0 ? LoopError("uv_write", code: status) : nil)
    }
}

/// ``streamHandleShutDown`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var streamHandleShutDownCallback: uv_shutdown_cb { { streamHandleShutDown($0, $1) } }

@MainActor private func streamHandleShutDown(_ request: UnsafeMutablePointer<uv_shutdown_t>?, _ status: Int32) {
    guard let request else { return }
    let stream = request.pointee.handle
    request.deallocate()
    LoopHandle.dispatch(compose_uv_handle(stream), as: StreamHandle.self, status) { owner, status in
        owner.onShutdown?(status < 0 ? LoopError("uv_shutdown", code: status) : nil)
    }
}
