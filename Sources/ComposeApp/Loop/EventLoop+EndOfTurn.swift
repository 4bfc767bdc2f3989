import Logging

/// Something that batches work during a loop turn and finishes it at the
/// turn's end: a connection's small writes leave in one write call.
@MainActor
protocol EndOfTurnWork: AnyObject {
    /// Finishes what the turn batched.
    func endOfTurn()
}

extension EventLoop {
    /// Calls `work.endOfTurn()` at the end of the current loop turn: after
    /// the I/O callbacks of this turn, or, for work batched in a timer or
    /// before the loop waits, before it waits. Register once per turn.
    func atEndOfTurn(_ work: any EndOfTurnWork) {
        guard turnHandles != nil else {
            work.endOfTurn()
            return
        }
        endOfTurnWork.append(work)
    }

    /// Makes the handles that end each turn (when the loop is made).
    func startTurnHandles() {
        do {
            let before = try TurnHandle(loop: self, phase: .beforePoll)
            let after = try TurnHandle(loop: self, phase: .afterPoll)
            before.start { [unowned self] in
                finishTurn()
                beginTurn()
            }
            after.start { [unowned self] in finishTurn() }
            turnHandles = (before, after)
        } catch {
            // Without them, work is finished at once (see finishTurn).
            logger.error("Cannot watch the loop's turns: \(error). Writes are not batched.")
        }
    }

    /// Runs the end-of-turn work registered so far (and what it registers
    /// meanwhile).
    func finishTurn() {
        while !endOfTurnWork.isEmpty {
            let work = endOfTurnWork
            endOfTurnWork.removeAll(keepingCapacity: true)
            for item in work { item.endOfTurn() }
        }
    }

    /// Reads again from the streams the read budget paused: the loop is
    /// about to wait, and their data is already there.
    private func beginTurn() {
        turn &+= 1
        guard !pausedByBudget.isEmpty else { return }
        let paused = pausedByBudget
        pausedByBudget.removeAll(keepingCapacity: true)
        turnHandles?.before.keepsLoopAlive = false
        for stream in paused { stream.resumeAfterBudget() }
    }

    /// Reads from `stream` again at the start of the next turn. Until
    /// then the loop stays alive: a stream that stopped reading no longer
    /// counts as active, and it may be the only one.
    func resumeNextTurn(_ stream: StreamHandle) {
        if pausedByBudget.isEmpty { turnHandles?.before.keepsLoopAlive = true }
        pausedByBudget.append(stream)
    }

    /// Closes the turn handles (the loop is torn down).
    func closeTurnHandles() {
        finishTurn()
        pausedByBudget = []
        turnHandles?.before.close()
        turnHandles?.after.close()
        turnHandles = nil
    }
}
