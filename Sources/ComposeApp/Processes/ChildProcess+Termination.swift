extension ChildProcess {
    /// How a child process ended: its exit status, or the signal that
    /// killed it.
    ///
    /// `exit 3` is `Termination(status: 3, signal: nil)`; a child killed by
    /// `SIGTERM` is `Termination(status: 0, signal: 15)`.
    public struct Termination: Hashable, Sendable, CustomStringConvertible {
        /// The exit status (0 when a signal ended the process).
        public let status: Int64
        /// The signal that ended the process, if one did.
        public let signal: Int32?

        /// An end with exit status `status` (0 when a signal ended the
        /// process), or by the signal numbered `signal`.
        public init(status: Int64, signal: Int32?) {
            self.status = status
            self.signal = signal
        }

        /// Whether the process exited by itself with status 0.
        public var succeeded: Bool { status == 0 && signal == nil }

        /// "exited with status 3", "killed by SIGTERM (signal 15)".
        public var description: String {
            if let signal {
                return "killed by \(ProcessSignal.Name.describe(signal)) (signal \(signal))"
            }
            return "exited with status \(status)"
        }
    }
}
