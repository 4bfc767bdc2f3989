/// Something a per-turn budget paused, which the loop resumes at the start
/// of the next turn (``EventLoop/resumeNextTurn(_:delivering:)``).
@MainActor
protocol TurnResumable: AnyObject {
    /// The next turn began: go on within the new turn's budget.
    func resumeAfterBudget()
}

/// A reader that a per-turn budget can pause until the next loop turn: a
/// stream handle (a socket, a pipe, a terminal) or a regular file's reader.
///
/// The read budget (``EventLoop/readBudgetPerTurn``) pauses it after so
/// many bytes; the line budget of the ``LineDelivery`` reading from it
/// (``backlog``) after so many lines. Either way it stops reading
/// (``holdUntilNextTurn()``), the loop calls ``resumeAfterBudget()`` at the
/// start of the next turn, and there the backlog is delivered (within the
/// new turn's budget) before anything new is read; the reader reads again
/// unless its owner stopped reading or some backlog is left.
@MainActor
protocol TurnBudgeted: TurnResumable {
    /// The loop whose turns the budgets count.
    var loop: EventLoop { get }
    /// The lines read from it and not delivered yet (held weakly).
    var backlog: LineDelivery? { get set }
    /// Stops reading until the next loop turn (the owner's wish to read is
    /// kept). Idempotent within a turn.
    func holdUntilNextTurn()
}

/// Splits what one reader reads into lines and delivers them within the
/// loop's line budget (``EventLoop/lineBudgetPerTurn``): the fairness rule
/// of the resources that deliver lines (a child's output and error output,
/// ``TCPConnection/lines``, ``StandardInput``).
///
/// Once the reader has delivered the budget's lines in one loop turn, the
/// rest of what it read is kept, copied once, as the backlog; the reader
/// stops reading (``TurnBudgeted/holdUntilNextTurn()``); at the start of the
/// next turn the backlog is delivered, again within the budget, and only
/// when it is all delivered does the reader read again. Nothing is lost and
/// the order is kept: bytes read while a backlog waits go after it, and the
/// end of input is read only after it. So at most one read's bytes wait, and
/// one flooding child or client cannot hold the loop with a few thousand
/// short lines per read: timers, signals and other streams are served in
/// between.
///
/// Without a reader (a test context's simulated I/O, which has no loop
/// turns) there is no budget: every line is delivered at once.
@MainActor
final class LineDelivery: TurnResumable {
    /// The splitter (its limit and overflow are the resource's).
    var splitter: LineBuffer
    private let deliver: @MainActor (LineBuffer.Piece) -> Void
    private weak var reader: (any TurnBudgeted)?
    /// The reader's loop, whose turns the budget counts.
    private weak var loop: EventLoop?
    /// Called once the backlog of a reader that ended is delivered (see
    /// ``finishOverTurns(then:)``).
    private var whenFinished: (@MainActor () -> Void)?
    /// Bytes read and not split yet, from `backlogStart` on.
    private var backlog: [UInt8] = []
    private var backlogStart = 0
    /// Pieces delivered in the loop turn `budgetTurn`.
    private var deliveredThisTurn = 0
    private var budgetTurn = -1

    /// Splits with `splitter` and hands each piece, in order, to `deliver`.
    init(_ splitter: LineBuffer, deliver: @escaping @MainActor (LineBuffer.Piece) -> Void) {
        self.splitter = splitter
        self.deliver = deliver
    }

    /// Reads from `reader`, within its loop's line budget.
    func attach(to reader: any TurnBudgeted) {
        self.reader = reader
        loop = reader.loop
        reader.backlog = self
    }

    /// Whether bytes read wait for a later turn.
    var hasBacklog: Bool { backlogStart < backlog.count }

    /// Splits `bytes`, which follow everything appended before, and
    /// delivers the pieces this turn's budget allows; keeps the rest for
    /// the next turn.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        if hasBacklog {
            backlog.append(contentsOf: bytes)
            reader?.holdUntilNextTurn()
            return
        }
        let (pieces, consumed) = splitter.append(bytes, upTo: allowance())
        if consumed < bytes.count {
            backlog = Array(UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
            backlogStart = 0
            reader?.holdUntilNextTurn()
        }
        send(pieces)
    }

    /// Delivers the backlog within this turn's budget; if some is left,
    /// holds the reader for another turn.
    func deliverBacklog() {
        guard hasBacklog else { return }
        let (pieces, consumed) = backlog[backlogStart...].withUnsafeBytes { splitter.append($0, upTo: allowance()) }
        backlogStart += consumed
        if hasBacklog {
            reader?.holdUntilNextTurn()
        } else {
            backlog = []
            backlogStart = 0
        }
        send(pieces)
    }

    /// End of input (or the reader was drained and closed): delivers the
    /// backlog whatever the budget, then the unterminated last line, and
    /// leaves the splitter ready for a new stream.
    func finish() {
        var pieces: [LineBuffer.Piece] = []
        if hasBacklog {
            pieces = backlog[backlogStart...].withUnsafeBytes { splitter.append($0) }
        }
        backlog = []
        backlogStart = 0
        if let last = splitter.finish() { pieces.append(.line(last)) }
        send(pieces)
    }

    /// The reader ended, or was drained and closed, with a backlog left (a
    /// child's pipe after its exit): delivers the backlog over the next
    /// turns, within the budget, then the unterminated last line, then
    /// calls `done`. Without a backlog, all of that happens now.
    func finishOverTurns(then done: @escaping @MainActor () -> Void) {
        reader = nil
        guard hasBacklog, let loop else {
            finish()
            done()
            return
        }
        whenFinished = done
        loop.resumeNextTurn(self, delivering: true)
    }

    /// The next turn of ``finishOverTurns(then:)``.
    func resumeAfterBudget() {
        guard whenFinished != nil else { return }
        deliverBacklog()
        if hasBacklog, let loop {
            loop.resumeNextTurn(self, delivering: true)
            return
        }
        let done = whenFinished
        whenFinished = nil
        finish()
        done?()
    }

    /// How many pieces this turn's budget still allows (unlimited without
    /// a loop).
    private func allowance() -> Int {
        guard let loop else { return .max }
        if budgetTurn != loop.turn {
            budgetTurn = loop.turn
            deliveredThisTurn = 0
        }
        return max(0, loop.lineBudgetPerTurn - deliveredThisTurn)
    }

    private func send(_ pieces: [LineBuffer.Piece]) {
        guard !pieces.isEmpty else { return }
        if let loop {
            if budgetTurn != loop.turn {
                budgetTurn = loop.turn
                deliveredThisTurn = 0
            }
            deliveredThisTurn += pieces.count
            #if DEBUG
            if deliveredThisTurn > loop.mostLinesInTurn { loop.mostLinesInTurn = deliveredThisTurn }
            #endif
        }
        for piece in pieces { deliver(piece) }
    }
}
