import Compose

extension StandardInput: FrameSource {
    /// Decodes standard input with `buffering` (ComposeFraming's
    /// `frames(using:pausedWhileFull:)`) instead of splitting it into
    /// lines, pausing while `sink` (if any) is full. Returns `false`,
    /// changing nothing, when the input is already decoded into frames.
    @usableFromInline
    package func decodeFrames(with buffering: any FrameBuffering, pacedBy sink: (any WritableStream)?) -> Bool {
        guard frameDelivery == nil else { return false }
        // unowned(unsafe): called only while the delivery is open; the
        // input closes it in its deinit (see FrameDelivery.source).
        let delivery = FrameDelivery(buffering, source: self, loop: nil) { [unowned(unsafe) self] in
            isReading ? .open : .paused
        }
        if let sink { delivery.pace(by: sink) }
        frameDelivery = delivery
        return true
    }

    /// The emitter of the frames, once ``decodeFrames(with:pacedBy:)`` made it.
    @usableFromInline
    package var frameEmitter: (any EmitterProtocol)? { frameDelivery?.buffering.frames }

    /// Bytes read and not decoded yet (see
    /// `TCPConnection.bufferedInputBytes`); 0 without frames.
    public var bufferedInputBytes: Int { frameDelivery?.bufferedBytes ?? 0 }

    /// Reading started: a hold of the frames applies to the new reader,
    /// and the frames that wait go first.
    func resumeFrames() {
        guard let frameDelivery else { return }
        if frameDelivery.holdsInput { framesHoldInput(true) }
        frameDelivery.ownerResumed()
    }

    func framesHoldInput(_ held: Bool) {
        if held {
            simulated?.pause()
            stream?.stopReading()
            file?.pause()
            return
        }
        simulated?.resume()
        file?.resume()
        do {
            try stream?.startReading()
        } catch {
            failed(error)
        }
    }

    /// Whether it reads (started and not stopped).
    var isReading: Bool { stream != nil || file != nil || simulated != nil }

    /// The frames failed: reported on ``errors`` (and logged), and reading
    /// stops, as after a failed read.
    func framesFailed(_ error: LoopError) {
        failed(error)
    }

    var frameScheduler: (any Scheduler)? {
        (emitter.ownerContext ?? AppContext.current)?.scheduler
    }
}
