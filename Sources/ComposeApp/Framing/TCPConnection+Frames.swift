import Compose

extension TCPConnection: FrameSource {
    /// Decodes what the connection receives with `buffering` (ComposeFraming's
    /// `frames(using:pausedWhileFull:)`), pausing while `sink` (this
    /// connection unless given) is full. Returns `false`, changing nothing,
    /// when the connection already decodes frames.
    package func decodeFrames(with buffering: any FrameBuffering, pacedBy sink: (any WritableStream)?) -> Bool {
        guard frameDelivery == nil else { return false }
        var loop: EventLoop?
        if case .socket(let handle) = transport { loop = handle.loop }
        let delivery = FrameDelivery(buffering, source: self, loop: loop)
        delivery.pace(by: sink ?? self)
        frameDelivery = delivery
        emitter += { chunk in delivery.received(chunk.bytes) }
        return true
    }

    /// The emitter of the frames, once ``decodeFrames(with:pacedBy:)`` made it.
    package var frameEmitter: (any EmitterProtocol)? { frameDelivery?.buffering.frames }

    /// Bytes received and not decoded yet: the start of an incomplete frame,
    /// and frames that wait for the consumer (its send queue full, the
    /// loop turn's budget spent, reading paused). 0 when the connection
    /// does not decode frames, or has nothing buffered (an idle
    /// connection holds no input buffer).
    public var bufferedInputBytes: Int { frameDelivery?.bufferedBytes ?? 0 }

    func framesHoldInput(_ held: Bool) {
        updateReading()
    }

    var acceptsFrames: Bool { isOpen && !closeAfterFlush && wantsReading }

    func framesFailed(_ error: LoopError) {
        closeForBadInput(error)
    }

    var frameScheduler: (any Scheduler)? {
        (emitter.ownerContext ?? AppContext.current)?.scheduler
    }
}
