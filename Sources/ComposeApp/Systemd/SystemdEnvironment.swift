#if canImport(Glibc)
public import Glibc
#endif

/// What systemd tells a service through its environment: where to send
/// notifications (`NOTIFY_SOCKET`), the watchdog timeout (`WATCHDOG_USEC`,
/// `WATCHDOG_PID`) and the journal stream standard error is connected to
/// (`JOURNAL_STREAM`).
///
/// The runtime reads it once, at startup (``process(unsettingNotifyVariables:)``),
/// and hands it to the app's ``SystemdNotifier`` (`AppContext.systemd`);
/// tests make one from a dictionary:
///
/// ```swift
/// let environment = SystemdEnvironment(["NOTIFY_SOCKET": "@test", "WATCHDOG_USEC": "2000000"])
/// environment.watchdogTimeout   // .seconds(2)
/// ```
public struct SystemdEnvironment: Sendable, Hashable {
    /// `$NOTIFY_SOCKET`: the address of the service manager's datagram
    /// socket, a path (`/run/systemd/notify`) or an abstract name starting
    /// with `@`; `nil` when unset or empty, and then nothing is ever sent.
    public var notifySocket: String?
    /// `$WATCHDOG_USEC` as a duration, when it is a positive number and
    /// `$WATCHDOG_PID` is unset or names this process; `nil` otherwise
    /// (no watchdog, or one meant for another process).
    public var watchdogTimeout: Duration?
    /// `$JOURNAL_STREAM` (`DEVICE:INODE`), when set and well formed.
    /// Standard error goes to the journal only if it is still that stream:
    /// see ``JournalStream/matches(descriptor:)``.
    public var journalStream: JournalStream?

    /// An environment without systemd: nothing to notify, no watchdog, no
    /// journal.
    public static let none = SystemdEnvironment([:])

    /// The variables systemd sets for the notify protocol and the
    /// watchdog, which ``process(unsettingNotifyVariables:)`` removes.
    public static let notifyVariables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// Reads `variables` as systemd's.
    ///
    /// - Parameters:
    ///   - variables: Environment variables by name.
    ///   - processID: This process's id, compared with `WATCHDOG_PID`
    ///     (`getpid()` by default).
    public init(_ variables: [String: String], processID: Int32 = getpid()) {
        notifySocket = variables["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        watchdogTimeout = Self.watchdogTimeout(variables, processID: processID)
        journalStream = variables["JOURNAL_STREAM"].flatMap(JournalStream.init(parsing:))
    }

    /// The process's environment, read now. With
    /// `unsettingNotifyVariables` (what the runtime does at startup, as
    /// `sd_notify`'s `unset_environment` does) it then removes
    /// ``notifyVariables`` from the environment, so that the programs the
    /// app starts do not inherit them: the notifications belong to the
    /// service's main process (systemd refuses those of other processes
    /// with its default `NotifyAccess=main`), and a child that is itself a
    /// Compose app would otherwise send READY=1 and ping the watchdog on
    /// the app's behalf. `JOURNAL_STREAM` stays: a child that writes to the
    /// same standard error logs to the journal too, and one whose standard
    /// error was redirected sees that the stream no longer matches.
    ///
    /// Unsetting changes the process's environment: do it only while one
    /// thread runs (the runtime does it before its loop starts).
    public static func process(unsettingNotifyVariables: Bool = false) -> SystemdEnvironment {
        var variables: [String: String] = [:]
        for name in notifyVariables + ["JOURNAL_STREAM"] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        if unsettingNotifyVariables {
            for name in notifyVariables { unsetenv(name) }
        }
        return SystemdEnvironment(variables)
    }

    /// Whether standard error is the journal stream systemd connected it
    /// to (`JOURNAL_STREAM` matches its device and inode).
    public var standardErrorIsJournal: Bool {
        journalStream?.matches(descriptor: STDERR_FILENO) ?? false
    }

    private static func watchdogTimeout(_ variables: [String: String], processID: Int32) -> Duration? {
        guard let text = variables["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
              microseconds <= UInt64(Int64.max) else { return nil }
        if let pid = variables["WATCHDOG_PID"], !pid.isEmpty {
            guard Int32(pid) == processID else { return nil }
        }
        return .microseconds(Int64(microseconds))
    }
}
