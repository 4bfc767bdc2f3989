import Compose

/// What a ``FrameDelivery`` needs of the stream it decodes: a
/// ``TCPConnection``, a ``ChildProcess``'s standard output,
/// ``StandardInput``. The stream owns its delivery, and closes it
/// (``FrameDelivery/close()``) before it goes away.
@MainActor
protocol FrameSource: AnyObject {
    /// Reading must stop (`true`: the delivery holds frames it cannot
    /// deliver yet) or may go on (`false`), as far as frames are concerned;
    /// the stream's own reasons to pause stay its own.
    func framesHoldInput(_ held: Bool)
    /// The decoder failed (``LoopError/Code/frameTooLarge`` or
    /// ``LoopError/Code/malformedFrame``): report `error` and close the
    /// stream. The frames before it were delivered.
    func framesFailed(_ error: LoopError)
    /// The app's clock, where a resumption is scheduled without a loop (a
    /// test context).
    var frameScheduler: (any Scheduler)? { get }
}

/// Whether a stream takes a frame now (``FrameDelivery/gate``).
enum FrameGate {
    /// Yes.
    case open
    /// No: the stream is closing, or its owner paused it
    /// (``ReadableStream/pauseReading()``); its resumption says when.
    case paused
    /// No: the stream's own send queue is full (a connection whose
    /// replies pace its frames); its `didBecomeWritable` says when.
    case full
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
///
/// Its state is read on every frame. `@exclusivity(unchecked)` (release
/// builds) drops the dynamic exclusivity checks of those fields: every
/// access is a plain statement of this class's methods, on the main actor,
/// and none spans a call (the calls out, to the buffer, the source and the
/// sink, are made between accesses), so no two accesses can overlap.
@MainActor
package final class FrameDelivery: TurnResumable {
    /// The buffer and the decoder (ComposeFraming's).
    package let buffering: any FrameBuffering
    /// The stream, which owns this delivery. `unowned(unsafe)`: read
    /// several times per frame, and a connection is weakly referenced
    /// elsewhere (its drain), so each retain of it (plain `unowned` loads
    /// retain) takes its side table's slow path: about 1,000 instructions
    /// per echoed frame. Safe because every stream calls ``close()`` in its
    /// deinit, before it is gone, and every path to `source` checks
    /// ``isClosed`` first (`deliverAvailable` also after each frame, whose
    /// observers may destroy the stream).
    private unowned(unsafe) let source: any FrameSource
    /// Asked before each frame: whether the stream takes it. A closure the
    /// stream made, reading its own fields (a call through ``source``, an
    /// existential, would retain the stream for each call: 250
    /// instructions per frame for a connection, whose retains take its side
    /// table's slow path).
    private let gate: @MainActor () -> FrameGate
    /// The loop whose turns the budget counts (`nil` in a test context).
    #if DEBUG
    private var loop: EventLoop?
    #else
    @exclusivity(unchecked) private var loop: EventLoop?
    #endif
    /// Another sink: delivering waits while it is full.
    private weak var sink: (any WritableStream)?
    private var sinkWatch: Subscription?
    /// Whether the stream is told to stop reading.
    #if DEBUG
    private(set) var holdsInput = false
    #else
    @exclusivity(unchecked) private(set) var holdsInput = false
    #endif
    #if DEBUG
    private var isDelivering = false
    #else
    @exclusivity(unchecked) private var isDelivering = false
    #endif
    /// Why delivering stopped, while it waits (`.none`: it does not wait).
    #if DEBUG
    private var waiting = Waiting.none
    #else
    @exclusivity(unchecked) private var waiting = Waiting.none
    #endif
    /// Closed or failed: nothing more is delivered, the source is not
    /// touched.
    #if DEBUG
    private var isClosed = false
    #else
    @exclusivity(unchecked) private var isClosed = false
    #endif
    /// Closed for good (the stream closed or went away).
    private var isGone = false
    /// End of input was read: once the buffered frames are delivered, the
    /// last ones are decoded and this is called.
    private var whenFinished: (@MainActor () -> Void)?
    #if DEBUG
    private var isFinishing = false
    #else
    @exclusivity(unchecked) private var isFinishing = false
    #endif
    /// Frames delivered in the loop turn `budgetTurn`.
    #if DEBUG
    private var deliveredThisTurn = 0
    #else
    @exclusivity(unchecked) private var deliveredThisTurn = 0
    #endif
    #if DEBUG
    private var budgetTurn = -1
    #else
    @exclusivity(unchecked) private var budgetTurn = -1
    #endif

    /// What a delivery that stopped waits for.
    private enum Waiting {
        case none
        /// The next turn (budget spent), or the owner resumed.
        case nextTurn
        /// The sink's `didBecomeWritable`.
        case sink
    }

    init(_ buffering: any FrameBuffering, source: any FrameSource, loop: EventLoop?, gate: @escaping @MainActor () -> FrameGate) {
        self.buffering = buffering
        self.source = source
        self.loop = loop
        self.gate = gate
    }

    /// The bytes read and not delivered yet.
    var bufferedBytes: Int { buffering.bufferedBytes }

    /// Whether a frame is being delivered with more input buffered behind
    /// it: its reply will have company (see `TCPConnection.write`).
    var isDeliveringWithInputLeft: Bool { isDelivering && buffering.bufferedBytes > 0 }

    /// Resumes at the source's own `didBecomeWritable`, when ``gate`` said
    /// ``FrameGate/full`` (a connection's replies); observed in the scope
    /// in effect.
    func paceBySource(_ source: some WritableStream) {
        sinkWatch = source.didBecomeWritable.observe { [weak self] in self?.sinkDrained() }
    }

    /// Waits while `sink` is full (from its ``WritableStream/didBecomeWritable``
    /// on). Observed in the scope in effect, as a relay is.
    ///
    /// A sink that closes while full sends `didBecomeWritable` (nothing
    /// waits for it any more); one that goes away ends the observation
    /// (its component removed, the sink freed, or the scope in effect
    /// destroyed): either way the frames no longer wait for it, and those
    /// waiting go on from the next turn.
    func pace(by sink: any WritableStream) {
        let previous = sinkWatch
        sinkWatch = nil
        previous?.cancel()
        let watch = sink.didBecomeWritable.observe({ [weak self] in self?.sinkDrained() }, onCancel: { [weak self] in self?.sinkWentAway() })
        // Refused (the sink's component is gone already, or the scope in
        // effect may not observe it: both diagnosed): the frames are not
        // paced by it, rather than wait for a signal that never comes.
        guard watch.isActive else { return }
        self.sink = sink
        sinkWatch = watch
    }

    /// A new run of the stream (a child started again, standard input
    /// started) reads on `loop`; after a failure, decoding starts afresh.
    func reading(on loop: EventLoop?) {
        self.loop = loop
        guard isClosed, !isGone else { return }
        isClosed = false
        whenFinished = nil
        isFinishing = false
        waiting = .none
        buffering.restart()
    }

    /// Bytes read: buffered, then delivered as far as the consumer allows.
    func received(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed, bytes.count > 0 else { return }
        buffering.append(bytes)
        // Waiting already (bytes a pipe's drain read past the hold): they
        // go after the frames waiting.
        guard waiting == .none else { return }
        deliverAvailable()
    }

    /// The owner resumed reading (after its own pause): the frames that
    /// wait go first, from the next turn on.
    func ownerResumed() {
        guard holdsInput, !isClosed, waiting == .none else { return }
        resumeNextTurn()
    }

    /// Delivers what waits from the next turn on (at once without a loop
    /// or a clock).
    private func resumeNextTurn() {
        waiting = .nextTurn
        if let loop {
            loop.resumeNextTurn(self, delivering: true)
        } else if let scheduler = source.frameScheduler {
            _ = scheduler.schedule(after: .zero) { [weak self] in self?.resumeAfterBudget() }
        } else {
            resumeAfterBudget()
        }
    }

    /// End of input: the frames buffered are delivered (as the consumer
    /// allows), then the decoder's last ones, then `done` is called.
    func finish(then done: (@MainActor () -> Void)? = nil) {
        guard !isClosed else {
            done?()
            return
        }
        isFinishing = true
        whenFinished = done
        guard waiting == .none else { return }
        deliverAvailable()
    }

    /// The stream closed for good, or is going away: nothing more is
    /// delivered, the source is not touched again, the buffer goes.
    func close() {
        isGone = true
        stop()
        let watch = sinkWatch
        sinkWatch = nil
        watch?.cancel()
    }

    /// Nothing more is delivered (until a new run, ``reading(on:)``); the
    /// buffer goes; a pending end is reported as done.
    private func stop() {
        isClosed = true
        buffering.release()
        let done = whenFinished
        whenFinished = nil
        done?()
    }

    // MARK: Delivering

    private func deliverAvailable() {
        guard !isDelivering, !isClosed else { return }
        isDelivering = true
        defer { isDelivering = false }
        while true {
            switch gate() {
            case .open:
                break
            case .paused:
                // Paused by its owner (or closing): the rest waits.
                hold(true)
                buffering.tidy()
                return
            case .full:
                waiting = .sink
                hold(true)
                buffering.tidy()
                return
            }
            if let sink, sink.isFull {
                waiting = .sink
                hold(true)
                buffering.tidy()
                return
            }
            if let loop, !hasBudget(in: loop) {
                waiting = .nextTurn
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
            if let loop { spendBudget(in: loop) }
            if isClosed { return }
        }
        if isFinishing {
            isFinishing = false
            do {
                try buffering.deliverLast()
            } catch {
                fail(error)
                return
            }
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
        guard waiting == .nextTurn else { return }
        waiting = .none
        deliverAvailable()
    }

    private func sinkDrained() {
        guard waiting == .sink else { return }
        waiting = .none
        deliverAvailable()
    }

    /// The observation of the sink ended without this delivery ending it:
    /// the sink's component was removed, the sink freed, or the scope in
    /// effect destroyed. Nothing is left to wait for: frames waiting for
    /// the sink go on from the next turn (not in the middle of whatever
    /// removed it).
    private func sinkWentAway() {
        guard sinkWatch != nil else { return }
        sinkWatch = nil
        sink = nil
        guard waiting == .sink, !isClosed else { return }
        resumeNextTurn()
    }

    private func hold(_ held: Bool) {
        guard held != holdsInput, !isClosed else { return }
        holdsInput = held
        source.framesHoldInput(held)
    }

    private func fail(_ error: LoopError) {
        hold(true)
        let source = source
        stop()
        source.framesFailed(error)
    }

    // MARK: Budget

    /// Whether this turn's budget (``EventLoop/lineBudgetPerTurn`` frames)
    /// allows one more frame.
    private func hasBudget(in loop: EventLoop) -> Bool {
        budgetTurn != loop.turn || deliveredThisTurn < loop.lineBudgetPerTurn
    }

    /// Counts a frame delivered in this turn.
    private func spendBudget(in loop: EventLoop) {
        let turn = loop.turn
        if budgetTurn != turn {
            budgetTurn = turn
            deliveredThisTurn = 0
        }
        deliveredThisTurn += 1
        #if DEBUG
        if deliveredThisTurn > loop.mostLinesInTurn { loop.mostLinesInTurn = deliveredThisTurn }
        #endif
    }
}
