/// The workers-mode parent's restart decisions (see ``WorkerOptions``),
/// apart from processes and clocks: given each worker's exit, how long it
/// ran and when, whether and when to start it again. Pure, so the policy is
/// tested without processes.
package struct WorkerRestarts: Sendable {
    /// What to do about a worker that exited.
    package enum Decision: Equatable, Sendable {
        /// Start it again after the delay.
        case restart(after: Duration)
        /// It exited 0 by itself: leave it be.
        case leave
        /// Too many restarts within the period: stop every worker.
        case giveUp
        /// It exited with the usage error status (64: an unknown option, an
        /// undeclared argument): every worker would, so starting it again
        /// cannot help. Stop every worker.
        case usageError
    }

    /// A worker's exit status that means its command line is wrong
    /// (`AppConfiguration.usageErrorExitStatus`, `EX_USAGE`).
    package static let usageErrorStatus: Int64 = 64

    package let options: WorkerOptions
    /// Each worker's consecutive failures, by index.
    package private(set) var failures: [Int: Int] = [:]
    /// When the restarts within the period were decided (nanoseconds on the
    /// caller's monotonic clock).
    private var recentRestarts: [UInt64] = []

    package init(options: WorkerOptions) {
        self.options = options
    }

    /// Decides about worker `index`, which exited with `status` or was
    /// killed by `signal` (0 if not) after running `ranFor`, at `now`.
    ///
    /// - Parameter jitterUnit: A random number in `0..<1` for the backoff's
    ///   jitter.
    package mutating func workerExited(
        _ index: Int,
        status: Int64,
        signal: Int32,
        ranFor: Duration,
        now: UInt64,
        jitterUnit: Double
    ) -> Decision {
        if status == 0, signal == 0 {
            failures[index] = 0
            return .leave
        }
        if status == Self.usageErrorStatus, signal == 0 { return .usageError }
        let previous = ranFor >= options.stablePeriod ? 0 : failures[index, default: 0]
        failures[index] = previous + 1
        let period = UInt64(max(0, options.restartPeriod.components.seconds)) * 1_000_000_000
            + UInt64(max(0, options.restartPeriod.components.attoseconds) / 1_000_000_000)
        recentRestarts.removeAll { now >= $0 && now - $0 > period }
        guard recentRestarts.count < max(0, options.maximumRestarts) else { return .giveUp }
        recentRestarts.append(now)
        return .restart(after: options.backoff.delay(afterFailures: previous + 1, jitterUnit: jitterUnit))
    }
}
