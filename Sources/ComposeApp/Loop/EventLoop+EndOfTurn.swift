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
                // What lines delivered from a backlog wrote.
                finishTurn()
            }
            after.start { [unowned self] in finishTurn() }
            turnHandles = (before, after)
            // Started only while a reader holds a backlog of lines.
            backlogTurn = try TurnHandle(loop: self, phase: .idle)
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

    /// Reads again from the readers a budget paused (their data is already
    /// there, in the kernel or in their backlog): the loop is about to wait.
    private func beginTurn() {
        turn &+= 1
        guard !pausedByBudget.isEmpty else { return }
        let paused = pausedByBudget
        pausedByBudget.removeAll(keepingCapacity: true)
        turnHandles?.before.keepsLoopAlive = false
        backlogTurn?.stop()
        for reader in paused { reader.resumeAfterBudget() }
    }

    /// Resumes `reader` at the start of the next turn. Until then the loop
    /// stays alive: a reader that stopped reading no longer counts as
    /// active, and it may be the only one. With `delivering` (the reader
    /// holds a backlog of lines, which no I/O event announces), the next
    /// turn does not wait for I/O either.
    func resumeNextTurn(_ reader: any TurnResumable, delivering: Bool = false) {
        if pausedByBudget.isEmpty { turnHandles?.before.keepsLoopAlive = true }
        pausedByBudget.append(reader)
        if delivering { startBacklogTurn() }
    }

    /// Starts the idle handle that keeps the next turn from waiting.
    /// (Without it, had it not been made, the backlog would wait for the
    /// loop's next event: late, never lost.)
    private func startBacklogTurn() {
        backlogTurn?.start {}
    }

    /// Closes the turn handles (the loop is torn down).
    func closeTurnHandles() {
        finishTurn()
        pausedByBudget = []
        backlogTurn?.close()
        backlogTurn = nil
        turnHandles?.before.close()
        turnHandles?.after.close()
        turnHandles = nil
    }
}
