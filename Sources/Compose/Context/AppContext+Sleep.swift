extension AppContext {
    /// The app's clock, for async code: see ``AppClock``.
    public nonisolated var clock: AppClock { AppClock(source: clockSource) }

    /// Sleeps until `deadline` on the scheduler; see ``AppClock``.
    func sleep(until deadline: Duration) async throws {
        guard let scheduler else { return }
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // A drain lets the app run on, sleeps included.
                guard !Task.isCancelled, !shutdown.isRequested || shutdown.phase == .draining else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                sleeper.continuation = continuation
                nextSleeper &+= 1
                sleeper.id = nextSleeper
                sleepers[sleeper.id] = sleeper
                beginWork()
                sleeper.action = scheduler.schedule(after: deadline - scheduler.now) { [weak self] in
                    self?.wake(sleeper, throwing: nil)
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.wake(sleeper, throwing: CancellationError()) }
        }
    }

    /// Ends every sleep with `CancellationError` (the app's tree is torn
    /// down), in
    /// the order they began.
    func cancelSleeps() {
        for id in sleepers.keys.sorted() {
            if let sleeper = sleepers[id] { wake(sleeper, throwing: CancellationError()) }
        }
    }

    private func wake(_ sleeper: Sleeper, throwing error: (any Error)?) {
        guard let continuation = sleeper.continuation else { return }
        sleeper.continuation = nil
        sleepers[sleeper.id] = nil
        if let action = sleeper.action, error != nil { scheduler?.cancel(action) }
        endWork()
        if let error {
            continuation.resume(throwing: error)
        } else {
            continuation.resume()
        }
    }
}

/// One task sleeping on an ``AppClock``.
@MainActor
final class Sleeper {
    var continuation: CheckedContinuation<Void, any Error>?
    var action: ScheduledAction?
    /// Its order among the app's sleeps.
    var id: UInt64 = 0
}
