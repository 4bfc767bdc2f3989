/// What the workers-mode parent tells systemd about its workers (see
/// ``WorkerOptions``), apart from sockets and processes: given what each
/// worker notified (through ``WorkerNotifyChannel``), when the service is
/// ready, when a reload is over, and its status line. Pure, so the protocol
/// is tested without processes.
///
/// - The service is ready (`READY=1`, once) when every worker has said
///   `READY=1`: a `Type=notify` unit counts as started only once all its
///   workers serve.
/// - A reload (`SIGHUP`) is over (`READY=1` after the parent's
///   `RELOADING=1`) when every worker running at the time, or started
///   since, has said `READY=1` after it.
/// - Workers' `EXTEND_TIMEOUT_USEC=` is passed on when it asks for more
///   than what was passed on before (systemd's timeout belongs to the unit,
///   and the parent waits for its slowest worker).
package struct WorkerReadiness: Sendable {
    /// A running worker's state, as its notifications tell it.
    package enum State: Equatable, Sendable {
        /// Started, not ready yet.
        case starting
        /// It said `READY=1`.
        case ready
        /// A reload was asked for (or it said `RELOADING=1`) and it has not
        /// said `READY=1` since.
        case reloading
        /// It said `STOPPING=1`.
        case stopping
    }

    /// What the parent sends in answer to a notification.
    package enum Answer: Equatable, Sendable {
        /// `READY=1`: every worker is ready, at the start or after a reload.
        case ready
        /// `EXTEND_TIMEOUT_USEC=` with this many microseconds.
        case extendTimeout(microseconds: Int64)
    }

    /// How many workers the parent runs.
    package let count: Int
    /// The running workers' states, by index.
    package private(set) var states: [Int: State] = [:]
    /// Whether `READY=1` was sent for the start.
    package private(set) var hasBeenReady = false
    /// Whether a reload runs (between the parent's `RELOADING=1` and
    /// `READY=1`).
    package private(set) var isReloading = false
    /// Whether the workers are being stopped.
    package private(set) var isStopping = false
    /// Until when (nanoseconds on the caller's monotonic clock) systemd
    /// was last asked to wait.
    private var extendedUntil: UInt64 = 0

    package init(count: Int) {
        self.count = count
    }

    /// The `STATUS=` line: "2 of 4 workers ready", "reloading: 1 of 4
    /// workers ready", "stopping: 3 of 4 workers left".
    package var status: String {
        if isStopping { return "stopping: \(states.count) of \(count) workers left" }
        let ready = states.values.filter { $0 == .ready }.count
        return "\(isReloading ? "reloading: " : "")\(ready) of \(count) workers ready"
    }

    /// Worker `index` was started.
    package mutating func started(_ index: Int) {
        states[index] = .starting
    }

    /// Worker `index` exited: it no longer counts. A reload waiting for it
    /// only may be over.
    package mutating func exited(_ index: Int) -> Answer? {
        states[index] = nil
        return reloadIsOver()
    }

    /// The parent received `SIGHUP` and sent `RELOADING=1`: every ready
    /// worker reloads (one still starting reads the new configuration
    /// anyway). With no worker running, it is over at once.
    package mutating func reloadBegan() -> Answer? {
        guard !isStopping else { return nil }
        isReloading = true
        for (index, state) in states where state == .ready { states[index] = .reloading }
        return reloadIsOver()
    }

    /// The parent began stopping its workers.
    package mutating func stoppingBegan() {
        isStopping = true
        isReloading = false
    }

    /// Worker `index` sent `assignments` (`KEY=VALUE` lines) at `now`.
    /// Other keys (`STATUS=`, `WATCHDOG=1`, `MAINPID=`...) are the parent's
    /// business, not the worker's, and are ignored.
    package mutating func received(_ assignments: [(key: Substring, value: Substring)], from index: Int, now: UInt64) -> [Answer] {
        guard states[index] != nil else { return [] }
        var answers: [Answer] = []
        for (key, value) in assignments {
            switch key {
            case "READY" where value == "1":
                guard states[index] != .stopping else { continue }
                states[index] = .ready
                if !hasBeenReady, !isStopping, states.count == count, states.values.allSatisfy({ $0 == .ready }) {
                    hasBeenReady = true
                    // A reload asked for meanwhile is over too.
                    isReloading = false
                    answers.append(.ready)
                } else if let answer = reloadIsOver() {
                    answers.append(answer)
                }
            case "RELOADING" where value == "1":
                if states[index] != .stopping { states[index] = .reloading }
            case "STOPPING" where value == "1":
                states[index] = .stopping
            case "EXTEND_TIMEOUT_USEC":
                guard let microseconds = Int64(value), microseconds > 0,
                      microseconds < Int64.max / 1000 else { continue }
                let until = now &+ UInt64(microseconds) * 1000
                guard until > extendedUntil else { continue }
                extendedUntil = until
                answers.append(.extendTimeout(microseconds: microseconds))
            default:
                continue
            }
        }
        return answers
    }

    /// `.ready` when a reload runs and no running worker is still starting
    /// or reloading.
    private mutating func reloadIsOver() -> Answer? {
        guard isReloading, !isStopping,
              !states.values.contains(where: { $0 == .starting || $0 == .reloading }) else { return nil }
        isReloading = false
        return .ready
    }

    /// Parses a notification: `KEY=VALUE` lines (empty lines and lines
    /// without `=` are skipped, as systemd skips them).
    package static func assignments(of datagram: [UInt8]) -> [(key: Substring, value: Substring)] {
        String(decoding: datagram, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return (line[..<equals], line[line.index(after: equals)...])
        }
    }
}
