import Compose

extension TCPConnection: FrameSource {
    /// Decodes what the connection receives with `buffering` (ComposeFraming's
    /// `frames(using:pausedWhileFull:)`), pausing while `sink` (this
    /// connection unless given) is full. Returns `false`, changing nothing,
    /// when the connection already decodes frames.
    @usableFromInline
    package func decodeFrames(with buffering: any FrameBuffering, pacedBy sink: (any WritableStream)?) -> Bool {
        guard frameDelivery == nil else { return false }
        var loop: EventLoop?
        if case .socket(let handle) = transport { loop = handle.loop }
        // unowned(unsafe): the gate is called before each frame; the
        // delivery calls it only while open, and the connection closes the
        // delivery in its deinit (see FrameDelivery.source).
        let pacedBySelf = sink == nil
        let delivery = FrameDelivery(buffering, source: self, loop: loop) { [unowned(unsafe) self] in
            guard isOpen, !closeAfterFlush, wantsReading else { return .paused }
            return pacedBySelf && isFull ? .full : .open
        }
        if let sink {
            delivery.pace(by: sink)
        } else {
            delivery.paceBySource(self)
        }
        frameDelivery = delivery
        emitter += { chunk in delivery.received(chunk.bytes) }
        return true
    }

    /// The emitter of the frames, once ``decodeFrames(with:pacedBy:)`` made it.
    @usableFromInline
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


    func framesFailed(_ error: LoopError) {
        closeForBadInput(error)
    }

    var frameScheduler: (any Scheduler)? {
        (emitter.ownerContext ?? AppContext.current)?.scheduler
    }
}
