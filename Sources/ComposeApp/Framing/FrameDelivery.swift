import Compose

/// What a ``FrameDelivery`` needs of the stream it decodes: a
/// ``TCPConnection``, a ``ChildProcess``'s standard output,
/// ``StandardInput``.
@MainActor
protocol FrameSource: AnyObject {
    /// Reading must stop (`true`: the delivery holds frames it cannot
    /// deliver yet) or may go on (`false`), as far as frames are concerned;
    /// the stream's own reasons to pause stay its own.
    func framesHoldInput(_ held: Bool)
    /// Whether frames may be delivered now: the stream is open and its owner
    /// has not paused it (``ReadableStream/pauseReading()``).
    var acceptsFrames: Bool { get }
    /// The decoder failed (``LoopError/Code/frameTooLarge`` or
    /// ``LoopError/Code/malformedFrame``): report `error` and close the
    /// stream. The frames before it were delivered.
    func framesFailed(_ error: LoopError)
    /// The app's clock, where a resumption is scheduled without a loop (a
    /// test context).
    var frameScheduler: (any Scheduler)? { get }
}

/// Decodes one stream's input into frames and delivers them, one at a time,
/// as long as the consumer can take them: the per-turn budget, the
/// back-pressure of a sink, and the owner's pauses hold it.
///
/// - **Lazily.** A frame is decoded only when it can be delivered: the
///   stream's sink full (``WritableStream/isFull``, a connection's own send
///   queue by default), its owner paused, or this turn's budget spent, the
///   delivery stops, the undelivered bytes stay encoded in the buffer, and
///   the stream stops reading (``FrameSource/framesHoldInput(_:)``). So at
///   most one read waits, plus the start of an incomplete frame.
/// - **Resuming.** At the sink's ``WritableStream/didBecomeWritable``, at the
///   next loop turn (budget), or when the owner resumes, the buffered frames
///   are delivered first; reading resumes once the buffer holds no complete
///   frame.
/// - **Fairness.** At most the loop's line budget
///   (``EventLoop/lineBudgetPerTurn``, 1,024) of frames per turn, as
///   ``LineDelivery`` does for lines; without a loop (a test context) there
///   is no budget.
/// - **Failure.** A frame over the decoder's maximum, or input the decoder
///   rejects, stops everything: the stream is told
///   (``FrameSource/framesFailed(_:)``), and closes; nothing else is
///   affected.
@MainActor
package final class FrameDelivery: TurnResumable {
    /// The buffer and the decoder (ComposeFraming's).
    package let buffering: any FrameBuffering
    private weak var source: (any FrameSource)?
    /// The loop whose turns the budget counts (`nil` in a test context).
    private weak var loop: EventLoop?
    /// The consumer's sink: delivering waits while it is full.
    private weak var sink: (any WritableStream)?
    private var sinkWatch: Subscription?
    /// Whether the stream is told to stop reading.
    private(set) var holdsInput = false
    private var isDelivering = false
    private var waitsForTurn = false
    private var waitsForSink = false
    private var resumeScheduled = false
    private var hasFailed = false
    /// End of input was read: once the buffered frames are delivered, the
    /// last ones are decoded and this is called.
    private var whenFinished: (@MainActor () -> Void)?
    private var isFinishing = false
    /// Frames delivered in the loop turn `budgetTurn`.
    private var deliveredThisTurn = 0
    private var budgetTurn = -1

    init(_ buffering: any FrameBuffering, source: any FrameSource, loop: EventLoop?) {
        self.buffering = buffering
        self.source = source
        self.loop = loop
    }

    /// The bytes read and not delivered yet.
    var bufferedBytes: Int { buffering.bufferedBytes }

    /// Waits while `sink` is full (from its ``WritableStream/didBecomeWritable``
    /// on). Observed in the scope in effect, as a relay is.
    func pace(by sink: any WritableStream) {
        self.sink = sink
        sinkWatch?.cancel()
        sinkWatch = sink.didBecomeWritable.observe { [weak self] in self?.sinkDrained() }
    }

    /// A new run of the stream (a child started again) reads on `loop`.
    func reading(on loop: EventLoop?) {
        self.loop = loop
        hasFailed = false
        whenFinished = nil
        isFinishing = false
    }

    /// Bytes read: buffered, then delivered as far as the consumer allows.
    func received(_ bytes: UnsafeRawBufferPointer) {
        guard !hasFailed, bytes.count > 0 else { return }
        buffering.append(bytes)
        // Waiting already (bytes a pipe's drain read past the hold): they
        // go after the frames waiting.
        guard !waitsForTurn, !waitsForSink, !resumeScheduled else { return }
        deliverAvailable()
    }

    /// The owner resumed reading (after its own pause): the frames that
    /// wait go first, from the next turn on.
    func ownerResumed() {
        guard holdsInput, !hasFailed, !waitsForTurn, !waitsForSink, !resumeScheduled else { return }
        resumeScheduled = true
        if let loop {
            loop.resumeNextTurn(self, delivering: true)
        } else if let scheduler = source?.frameScheduler {
            _ = scheduler.schedule(after: .zero) { [weak self] in self?.resumeAfterBudget() }
        } else {
            resumeAfterBudget()
        }
    }

    /// End of input: the frames buffered are delivered (as the consumer
    /// allows), then the decoder's last ones, then `done` is called.
    func finish(then done: (@MainActor () -> Void)? = nil) {
        guard !hasFailed else {
            done?()
            return
        }
        isFinishing = true
        whenFinished = done
        guard !waitsForTurn, !waitsForSink, !resumeScheduled else { return }
        deliverAvailable()
    }

    /// The stream closed: nothing more is delivered; the buffer goes.
    func close() {
        hasFailed = true
        sinkWatch?.cancel()
        sinkWatch = nil
        buffering.release()
        let done = whenFinished
        whenFinished = nil
        done?()
    }

    // MARK: Delivering

    private func deliverAvailable() {
        guard !isDelivering, !hasFailed else { return }
        isDelivering = true
        defer { isDelivering = false }
        while true {
            guard let source, source.acceptsFrames else {
                // Paused by its owner (or closing): the rest waits.
                hold(true)
                buffering.tidy()
                return
            }
            if let sink, sink.isFull {
                waitsForSink = true
                hold(true)
                buffering.tidy()
                return
            }
            if allowance() == 0, let loop {
                waitsForTurn = true
                hold(true)
                buffering.tidy()
                loop.resumeNextTurn(self, delivering: true)
                return
            }
            do {
                guard try buffering.deliverNext() else { break }
            } catch {
                fail(error)
                return
            }
            spendBudget()
            if hasFailed { return }
        }
        if isFinishing {
            isFinishing = false
            do {
                try buffering.deliverLast()
            } catch {
                fail(error)
                return
            }
            buffering.release()
            let done = whenFinished
            whenFinished = nil
            done?()
            return
        }
        buffering.tidy()
        hold(false)
    }

    /// The next turn began (after the budget was spent, or the owner
    /// resumed): deliver within the new turn's budget.
    func resumeAfterBudget() {
        guard waitsForTurn || resumeScheduled else { return }
        waitsForTurn = false
        resumeScheduled = false
        deliverAvailable()
    }

    private func sinkDrained() {
        guard waitsForSink else { return }
        waitsForSink = false
        deliverAvailable()
    }

    private func hold(_ held: Bool) {
        guard held != holdsInput else { return }
        holdsInput = held
        source?.framesHoldInput(held)
    }

    private func fail(_ error: LoopError) {
        hasFailed = true
        hold(true)
        buffering.release()
        sinkWatch?.cancel()
        sinkWatch = nil
        let done = whenFinished
        whenFinished = nil
        source?.framesFailed(error)
        done?()
    }

    // MARK: Budget

    /// How many frames this turn's budget still allows (unlimited without
    /// a loop).
    private func allowance() -> Int {
        guard let loop else { return .max }
        if budgetTurn != loop.turn {
            budgetTurn = loop.turn
            deliveredThisTurn = 0
        }
        return max(0, loop.lineBudgetPerTurn - deliveredThisTurn)
    }

    private func spendBudget() {
        guard let loop else { return }
        if budgetTurn != loop.turn {
            budgetTurn = loop.turn
            deliveredThisTurn = 0
        }
        deliveredThisTurn += 1
        #if DEBUG
        if deliveredThisTurn > loop.mostLinesInTurn { loop.mostLinesInTurn = deliveredThisTurn }
        #endif
    }
}
