internal import CLibUV
import Compose

/// The app's end of a simulated TCP connection: what a `TCPConnection`
/// reads from and writes to in a test context. The other end is a
/// ``SimulatedPeer`` the test holds.
///
/// Like a socket, it delivers what the peer sent while reading is on (in
/// chunks, as sent), then end of input or a reset. Its writes go to the
/// peer as a socket's do: a peer that reads takes up to
/// ``SimulatedPeer/socketBuffer`` bytes at each step of the clock (the
/// kernel's buffers), so a larger write queues in the app and drains over
/// the next steps, at the same virtual instant; a peer that stopped reading
/// takes its window, then nothing. Deliveries and the close notification
/// go through the context's clock, never inside the call that caused them.
@MainActor
final class SimulatedSocket {
    var onRead: (@MainActor (ByteChunk) -> Void)?
    var onEnd: (@MainActor (LoopError?) -> Void)?
    var onClosed: (@MainActor () -> Void)?
    var onWriteCompleted: (@MainActor (Int, LoopError?) -> Void)?
    private(set) var isClosing = false
    let peer: SimulatedPeer
    /// The other end as the app sees it (`127.0.0.1:53122`).
    let remoteAddress: String
    let scheduler: any Scheduler
    /// Weak: the context outlives its sockets only while its app runs.
    private weak var context: AppContext?
    private var isReading = false
    var inbound: [[UInt8]] = []
    /// What ends the peer's input once `inbound` is delivered: `nil` while
    /// it goes on, `.some(nil)` for end of input, `.some(error)` for a reset.
    private var inboundEnd: LoopError??
    var deliveryScheduled = false
    /// Writes waiting for room in the peer's receive buffer.
    private struct Outbound {
        var bytes: [UInt8]
        var taken: Int
    }
    /// Writes the peer has not taken all of, from `outboundHead` on (a
    /// head index rather than `removeFirst`, so a long queue drains in
    /// linear time).
    private var outbound: [Outbound] = []
    private var outboundHead = 0
    /// The bytes of `outbound` the peer has not taken.
    private(set) var unwrittenBytes = 0
    /// Whether the step that empties a reading peer's buffer is scheduled.
    private var readStepScheduled = false

    // Simulated TLS (SimulatedSocket+TLS.swift).
    /// Whether the connection runs over simulated TLS.
    var isTLS = false
    /// What its handshake settled, once it completed.
    var tlsSession: SimulatedTLSSession?
    /// The handshake runs: the app's writes and the peer's bytes wait.
    var handshakePending = false
    /// The handshake failed or timed out: no close_notify is sent.
    var tlsFailed = false
    /// The handshake's deadline, while it runs.
    var handshakeDeadline: ScheduledAction?
    /// Reports the handshake's failure to the app, while it runs.
    var handshakeFailed: (@MainActor (LoopError) -> Void)?

    init(peer: SimulatedPeer, remoteAddress: String, scheduler: any Scheduler, context: AppContext) {
        self.peer = peer
        self.remoteAddress = remoteAddress
        self.scheduler = scheduler
        self.context = context
        context.beginWork()
        peer.socket = self
    }

    // MARK: The app's side

    func startReading() {
        isReading = true
        scheduleDelivery()
    }

    func stopReading() {
        isReading = false
    }

    /// Takes what the peer's receive buffer has room for (every byte while
    /// the peer reads), unless the peer is gone: reset (`ECONNRESET`) or
    /// closed (`EPIPE`, as a socket says once the peer's reset came back).
    func tryWrite(_ bytes: UnsafeRawBufferPointer) throws(LoopError) -> Int {
        if peer.hasReset { throw LoopError("uv_try_write", code: UV_ECONNRESET.rawValue) }
        if peer.isClosed { throw LoopError("uv_try_write", code: UV_EPIPE.rawValue) }
        // Nothing overtakes what is queued, nor a handshake under way.
        guard !handshakePending, outboundHead == outbound.count else { return 0 }
        return took(peer.take(bytes))
    }

    /// `count` bytes went to the peer: a reading peer reads them at the
    /// next step, which makes room for more.
    private func took(_ count: Int) -> Int {
        if count > 0, peer.isReading, !readStepScheduled {
            readStepScheduled = true
            _ = scheduler.schedule(after: .zero) { [weak self] in
                guard let self else { return }
                readStepScheduled = false
                peer.readBuffer()
                flushOutbound()
            }
        }
        return count
    }

    /// Queues what ``tryWrite(_:)`` did not take; ``onWriteCompleted``
    /// reports it once the peer took all of it, as `uv_write`'s callback
    /// does.
    func queueWrite(copying bytes: UnsafeRawBufferPointer) throws(LoopError) {
        if peer.hasReset { throw LoopError("uv_write", code: UV_ECONNRESET.rawValue) }
        if peer.isClosed { throw LoopError("uv_write", code: UV_EPIPE.rawValue) }
        outbound.append(Outbound(bytes: Array(bytes), taken: 0))
        unwrittenBytes += bytes.count
        flushOutbound()
    }

    /// Hands queued writes to the peer as its buffer makes room.
    func flushOutbound() {
        while !isClosing, !handshakePending, outboundHead < outbound.count {
            let head = outboundHead
            let taken = took(outbound[head].bytes.withUnsafeBytes { peer.take(UnsafeRawBufferPointer(rebasing: $0[outbound[head].taken...])) })
            outbound[head].taken += taken
            unwrittenBytes -= taken
            guard outbound[head].taken == outbound[head].bytes.count else { return }
            let count = outbound[head].bytes.count
            outbound[head].bytes = []
            outboundHead += 1
            if outboundHead == outbound.count {
                outbound.removeAll(keepingCapacity: true)
                outboundHead = 0
            }
            _ = scheduler.schedule(after: .zero) { [weak self] in
                self?.onWriteCompleted?(count, nil)
            }
        }
    }

    /// Half-close: the peer sees end of input.
    func shutdown() {
        sendCloseNotify()
        peer.inputEnded = true
    }

    /// Closes the app's end: the peer sees end of input, or, with `reset`,
    /// a reset (``SimulatedPeer/isResetByApp``). What was queued and not
    /// taken is dropped either way (libuv cancels its queued writes).
    func close(reset: Bool) {
        guard !isClosing else { return }
        if !reset { sendCloseNotify() }
        cancelHandshakeDeadline()
        isClosing = true
        onRead = nil
        onEnd = nil
        onWriteCompleted = nil
        outbound = []
        outboundHead = 0
        unwrittenBytes = 0
        peer.inputEnded = true
        if reset, !peer.isClosed { peer.isResetByApp = true }
        peer.socket = nil
        _ = scheduler.schedule(after: .zero) { [self] in
            let closed = onClosed
            onClosed = nil
            closed?()
            context?.endWork()
        }
    }

    // MARK: The peer's side

    func peerSent(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if handshakePending, peer.tls == nil { plainBytesDuringHandshake() }
        inbound.append(bytes)
        scheduleDelivery()
    }

    func peerEnded(reset: Bool) {
        guard inboundEnd == nil else { return }
        if handshakePending { peerEndedDuringHandshake() }
        inboundEnd = .some(reset ? LoopError("uv_read", code: UV_ECONNRESET.rawValue) : nil)
        if reset { inbound = [] }
        scheduleDelivery()
    }

    func scheduleDelivery() {
        guard !deliveryScheduled, !isClosing, !handshakePending, isReading, !inbound.isEmpty || inboundEnd != nil else { return }
        deliveryScheduled = true
        _ = scheduler.schedule(after: .zero) { [weak self] in
            self?.deliver()
        }
    }

    private func deliver() {
        deliveryScheduled = false
        while isReading, !isClosing, !inbound.isEmpty {
            let bytes = inbound.removeFirst()
            let buffer = ReadBuffer(size: bytes.count)
            bytes.withUnsafeBytes { buffer.memory.copyMemory(from: $0) }
            onRead?(ByteChunk(buffer: buffer, count: bytes.count))
        }
        if isReading, !isClosing, inbound.isEmpty, let end = inboundEnd {
            isReading = false
            onEnd?(end)
        }
    }
}

/// The test's end of a simulated connection: a client of the app, or a
/// scripted server's end of a connection the app opened.
@MainActor
package final class SimulatedPeer {
    /// The test side's port: a client's own, or the scripted server's.
    package let port: UInt16
    /// Every byte the app wrote to this client.
    package fileprivate(set) var received: [UInt8] = []
    /// Whether the app ended its side (closed or half-closed).
    package fileprivate(set) var inputEnded = false
    /// Whether this client closed or reset the connection.
    package private(set) var isClosed = false
    /// Whether the peer reads what it is sent; when it does not, its
    /// receive buffer takes at most ``window`` bytes, then the app's writes
    /// queue (a client that stopped reading).
    package private(set) var isReading = true
    /// The size of the peer's receive buffer while it does not read.
    package private(set) var window = 0
    /// Whether the app reset the connection (it cut this peer off for not
    /// reading: `TCPConnection.sendQueueLimits`) rather than closed it.
    package fileprivate(set) var isResetByApp = false
    /// What a reading peer takes in one step of the clock: its socket's
    /// buffers. A write larger than this queues in the app, as on a real
    /// socket, and drains over the next steps.
    package static let socketBuffer = 256 * 1024
    /// What arrived while the peer was not reading.
    private var buffered: [UInt8] = []
    /// What a reading peer took in this step.
    private var takenInStep = 0
    fileprivate(set) var hasReset = false
    fileprivate weak var socket: SimulatedSocket?
    /// What the test's end does in a TLS handshake; `nil` for a plain
    /// peer.
    package var tls: SimulatedTLSPeer?
    /// What the TLS handshake settled, once it completed.
    package internal(set) var tlsSession: SimulatedTLSSession?
    /// Whether the app ended its TLS session cleanly (close_notify).
    package internal(set) var receivedCloseNotify = false

    init(port: UInt16) {
        self.port = port
    }

    /// Stops reading: at most `window` more bytes are taken, then the
    /// app's writes wait.
    package func stopReading(window: Int) {
        isReading = false
        self.window = window
    }

    /// While not reading, reads `count` bytes of what its buffer holds (all
    /// there is, if less): they arrive, and the buffer has room for as
    /// many more, which the app's queued writes fill. A client that reads
    /// slowly.
    package func read(upTo count: Int) {
        guard !isReading, count > 0 else { return }
        let taken = Swift.min(count, buffered.count)
        received += buffered.prefix(taken)
        buffered.removeFirst(taken)
        socket?.flushOutbound()
    }

    /// Reads again: what waited arrives, and the app's queued writes flow.
    package func resumeReading() {
        isReading = true
        received += buffered
        buffered = []
        takenInStep = 0
        socket?.flushOutbound()
    }

    /// Takes what there is room for; returns how many bytes.
    fileprivate func take(_ bytes: UnsafeRawBufferPointer) -> Int {
        if isReading {
            let taken = Swift.min(bytes.count, Swift.max(0, Self.socketBuffer - takenInStep))
            received.append(contentsOf: bytes.prefix(taken))
            takenInStep += taken
            return taken
        }
        let taken = Swift.min(bytes.count, Swift.max(0, window - buffered.count))
        buffered.append(contentsOf: bytes.prefix(taken))
        return taken
    }

    /// A reading peer read what its buffer held: it has room again.
    fileprivate func readBuffer() {
        takenInStep = 0
    }

    /// Sends `bytes` to the app.
    package func write(_ bytes: [UInt8]) {
        guard !isClosed else { return }
        socket?.peerSent(bytes)
    }

    /// Closes the connection: the app reads end of input.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        socket?.peerEnded(reset: false)
    }

    /// Resets the connection: the app's next read or write fails with
    /// `ECONNRESET`.
    package func reset() {
        guard !isClosed else { return }
        isClosed = true
        hasReset = true
        socket?.peerEnded(reset: true)
    }
}
