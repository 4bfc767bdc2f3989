import Compose

extension ChildProcess {
    /// A fatal child process (`fatal: true`) ended unsuccessfully without
    /// being asked to stop: the error its component fails with.
    ///
    /// **Supervision.** A child process made `fatal: true` fails the
    /// component it is stored in when it cannot start as the component
    /// appears (the `LoopError`), or when a run ends unsuccessfully — a
    /// non-zero status, or killed by a signal — while the app had not
    /// asked it to stop (``terminate()``, ``stop()``, ``close()``, its
    /// component going away). Under a `Supervisor` the component is
    /// destroyed (the process closed) and made again after the backoff, so
    /// a worker program started with its component restarts:
    ///
    /// ```swift
    /// struct Worker: Component {
    ///     let process = ChildProcess("/usr/local/bin/worker", startsWithComponent: true, fatal: true)
    /// }
    /// struct Workers: Component {
    ///     let supervisor = Supervisor(strategy: .oneForOne)
    ///     let worker = Supervised(Worker())
    /// }
    /// ```
    ///
    /// An exit with status 0 is not a failure: the component stays, with
    /// nothing running. ``kill(_:)`` does not count as asking it to stop.
    public struct UnexpectedExit: Error, Hashable, CustomStringConvertible {
        /// The executable, as given.
        public let executable: String
        /// How the run ended.
        public let termination: Termination

        /// The failure of a run of `executable` that ended as `termination` says.
        public init(executable: String, termination: Termination) {
            self.executable = executable
            self.termination = termination
        }

        /// "worker exited with status 3"
        public var description: String {
            "\(executable) \(termination)"
        }
    }

    /// A run ended with `termination`: fails the component when the
    /// process is fatal and the end was neither a success nor asked for.
    func failIfFatal(_ termination: Termination, askedToStop: Bool) {
        guard isFatal, !termination.succeeded, !askedToStop else { return }
        output.ownerNode?.fail(UnexpectedExit(executable: executable, termination: termination))
    }
}
