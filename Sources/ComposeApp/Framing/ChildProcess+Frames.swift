import Compose

extension ChildProcess: FrameSource {
    /// Decodes the child's standard output with `buffering` (ComposeFraming's
    /// `frames(using:pausedWhileFull:)`) instead of splitting it into
    /// ``output`` lines, pausing while `sink` (if any) is full. Returns
    /// `false`, changing nothing, when the output is already decoded into
    /// frames.
    @usableFromInline
    package func decodeFrames(with buffering: any FrameBuffering, pacedBy sink: (any WritableStream)?) -> Bool {
        guard outputFrames == nil else { return false }
        // unowned(unsafe): called only while the delivery is open; the
        // process closes it in its deinit (see FrameDelivery.source).
        let delivery = FrameDelivery(buffering, source: self, loop: phase == .idle ? nil : loop) { [unowned(unsafe) self] in
            isReadingPaused ? .paused : .open
        }
        if let sink { delivery.pace(by: sink) }
        outputFrames = delivery
        return true
    }

    /// The emitter of the frames, once ``decodeFrames(with:pacedBy:)`` made it.
    @usableFromInline
    package var frameEmitter: (any EmitterProtocol)? { outputFrames?.buffering.frames }

    /// Bytes of standard output read and not decoded yet (see
    /// `TCPConnection.bufferedInputBytes`); 0 without frames.
    public var bufferedInputBytes: Int { outputFrames?.bufferedBytes ?? 0 }

    func framesHoldInput(_ held: Bool) {
        let reads = !held && !isReadingPaused
        if let simulated {
            if reads { simulated.resumeOutput() } else { simulated.pauseOutput() }
        }
        guard let outputPipe else { return }
        if reads {
            do {
                try outputPipe.startReading()
            } catch {
                report(error)
            }
        } else {
            outputPipe.stopReading()
        }
    }


    /// The output's frames failed: reported, and the output closed (the
    /// child's next write to it fails; it runs on otherwise).
    func framesFailed(_ error: LoopError) {
        report(error)
        if outputPipe != nil { ended(.output) }
    }

    var frameScheduler: (any Scheduler)? {
        (output.ownerContext ?? AppContext.current)?.scheduler
    }
}
