import Compose

extension AppContext {
    /// Calls `body` at the end of every turn of the app's loop, just before
    /// it waits for I/O (after the turn's end-of-turn work), for as long as
    /// the app runs; in a test context (`TestApp`), each time its drivers
    /// have run what was due. What a presentation redraws from: it checks
    /// there whether anything changed during the turn.
    ///
    /// Does nothing in a context without a loop or a simulated world.
    package func observeTurnEnds(_ body: @escaping @MainActor () -> Void) {
        if let loop = eventLoop {
            loop.observeTurnEnds(body)
        } else {
            simulation?.observeTurnEnds(body)
        }
    }
}

extension SimulatedWorld {
    /// Ends a turn of the simulated world: calls what
    /// ``AppContext/observeTurnEnds(_:)`` registered. `TestApp`'s drivers
    /// call it after running what was due.
    package func endTurn() {
        guard !turnObservers.isEmpty else { return }
        for observer in turnObservers { observer() }
    }

    func observeTurnEnds(_ body: @escaping @MainActor () -> Void) {
        turnObservers.append(body)
    }
}
