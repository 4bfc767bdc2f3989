import Logging

/// Something that batches work during a loop turn and finishes it at the
/// turn's end: a connection's small writes leave in one write call.
@MainActor
protocol EndOfTurnWork: AnyObject {
    /// Finishes what the turn batched.
    func endOfTurn()
}

extension EventLoop {
    /// The loop turn: counted up each time the loop is about to wait (see
    /// ``TurnState/turn``).
    var turn: Int { turnState.pointee.turn }

    /// Calls `work.endOfTurn()` at the end of the current loop turn: after
    /// the I/O callbacks of this turn, or, for work batched in a timer or
    /// before the loop waits, before it waits. Register once per turn.
    ///
    /// The after-poll handle runs only while work is registered: started
    /// here when the list goes from empty to not, stopped when a turn's end
    /// drains it (``finishTurn()``). A turn with nothing batched (an echo's
    /// single write goes out at once) pays for no check handle in libuv.
    func atEndOfTurn(_ work: any EndOfTurnWork) {
        guard turnState.pointee.watchesTurns else {
            work.endOfTurn()
            return
        }
        if turnState.pointee.endOfTurnWork.isEmpty { turnHandles?.after.start() }
        turnState.pointee.endOfTurnWork.append(work)
    }

    /// Makes the handles that end each turn (when the loop is made). Each
    /// calls the loop directly (``turnWillWait()``, ``finishTurn()``): no
    /// closure, no reference counting, on every turn. The before-poll
    /// handle runs on every turn (it counts them); the after-poll one only
    /// while end-of-turn work waits (see ``atEndOfTurn(_:)``).
    func startTurnHandles() {
        do {
            let before = try TurnHandle(loop: self, phase: .beforePoll)
            let after = try TurnHandle(loop: self, phase: .afterPoll)
            before.start()
            turnHandles = (before, after)
            turnState.pointee.watchesTurns = true
            // Started only while a reader holds a backlog of lines.
            backlogTurn = try TurnHandle(loop: self, phase: .idle)
        } catch {
            // Without them, work is finished at once (see atEndOfTurn).
            logger.error("Cannot watch the loop's turns: \(error). Writes are not batched.")
        }
    }

    /// The loop is about to wait (its before-poll handle): finishes the
    /// turn, begins the next one, and finishes what the readers resumed
    /// there wrote. With nothing batched and nobody paused, it only counts
    /// the turn.
    func turnWillWait() {
        if turnState.pointee.busyPoll.window != 0 { decideBusyPolling() }
        if !turnState.pointee.endOfTurnWork.isEmpty { finishTurn() }
        if turnState.pointee.hasTurnObservers {
            for observer in turnObservers { observer() }
            // What they wrote to connections.
            if !turnState.pointee.endOfTurnWork.isEmpty { finishTurn() }
        }
        turnState.pointee.turn &+= 1
        guard !turnState.pointee.pausedByBudget.isEmpty else { return }
        resumePausedReaders()
        // What lines delivered from a backlog wrote.
        finishTurn()
    }

    /// Runs the end-of-turn work registered so far (and what it registers
    /// meanwhile), then stops the after-poll handle: nothing is left for
    /// it until the next ``atEndOfTurn(_:)``.
    func finishTurn() {
        let state = turnState
        while !state.pointee.endOfTurnWork.isEmpty {
            // Swapped with the spare array: items registering again land in
            // a fresh list, and neither array is copied or reallocated.
            var work = state.pointee.spareWork
            state.pointee.spareWork = []
            swap(&work, &state.pointee.endOfTurnWork)
            for item in work { item.endOfTurn() }
            work.removeAll(keepingCapacity: true)
            state.pointee.spareWork = work
        }
        turnHandles?.after.stop()
    }

    /// Reads again from the readers a budget paused (their data is already
    /// there, in the kernel or in their backlog): the loop is about to wait.
    private func resumePausedReaders() {
        let paused = turnState.pointee.pausedByBudget
        turnState.pointee.pausedByBudget = []
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
        if turnState.pointee.pausedByBudget.isEmpty { turnHandles?.before.keepsLoopAlive = true }
        turnState.pointee.pausedByBudget.append(reader)
        if delivering { startBacklogTurn() }
    }

    /// Starts the idle handle that keeps the next turn from waiting.
    /// (Without it, had it not been made, the backlog would wait for the
    /// loop's next event: late, never lost.)
    private func startBacklogTurn() {
        backlogTurn?.start()
    }

    /// Calls `body` each time the loop is about to wait, after the turn's
    /// end-of-turn work (see ``AppContext/observeTurnEnds(_:)``). Every
    /// turn then enters the loop object: a presentation's check costs the
    /// apps that have one only.
    func observeTurnEnds(_ body: @escaping @MainActor () -> Void) {
        turnObservers.append(body)
        turnState.pointee.hasTurnObservers = true
    }

    /// Closes the turn handles (the loop is torn down).
    func closeTurnHandles() {
        finishTurn()
        turnState.pointee.pausedByBudget = []
        turnState.pointee.watchesTurns = false
        turnState.pointee.hasTurnObservers = false
        turnObservers = []
        backlogTurn?.close()
        backlogTurn = nil
        turnState.pointee.busyPoll = BusyPoll()
        busyPollTurn?.close()
        busyPollTurn = nil
        turnHandles?.before.close()
        turnHandles?.after.close()
        turnHandles = nil
    }
}
