public import ComposeApp

/// An executable the test scripts (``TestApp/scriptProcess(_:signals:onStart:)``):
/// each time the app starts a `ChildProcess` of it, a ``Run`` plays the
/// child instead of a real process.
///
/// ```swift
/// let git = app.scriptProcess("git")
/// // ... the app starts ChildProcess("git", arguments: ["pull"])
/// let run = try #require(git.runs.last)
/// #expect(run.arguments == ["pull"])
/// run.writeOutput("Already up to date.\n")   // the app's `output` sends it
/// run.exit(status: 0)                        // then its `didExit`
/// ```
///
/// A run ends when the script says so (``Run/exit(status:)``,
/// ``Run/exit(signal:)``), or by a signal: `SIGKILL` always ends it; other
/// signals are handled as ``signals`` says, by default as a process does
/// (`SIGTERM` ends the run with that signal, so a graceful shutdown or
/// `terminate()` ends it at once). A script that ignores `SIGTERM` is
/// killed after the child's `terminationGracePeriod`, on virtual time.
@MainActor
public final class ScriptedProcess {
    /// How a scripted run handles a signal other than `SIGKILL` (which
    /// always ends it). Each run records every signal it received
    /// (``Run/signalsReceived``) whatever the handling.
    ///
    /// ```swift
    /// app.scriptProcess("server", signals: .ignore)       // SIGKILL after the grace period
    /// app.scriptProcess("nginx", signals: .handle { run, signal in
    ///     if signal == .hangup { run.writeError("reloading\n") } else { run.exit(status: 0) }
    /// })
    /// ```
    public enum SignalHandling {
        /// As a process does by default: `SIGCHLD`, `SIGCONT`, `SIGURG`,
        /// `SIGWINCH` and the stop signals change nothing; any other
        /// signal ends the run with it.
        case `default`
        /// Received, and nothing happens (a child that catches and ignores
        /// them).
        case ignore
        /// `handler` runs with the run and the signal; the run goes on
        /// unless the handler ends it.
        case handle(@MainActor (Run, ProcessSignal.Name) -> Void)
    }

    /// The executable as scripted (a name or a path).
    public let executable: String
    /// Every run, one per start, in order.
    public private(set) var runs: [Run] = []
    /// Runs at each start, with the new run.
    public var onStart: (@MainActor (Run) -> Void)?
    /// How runs handle signals; read when a run starts.
    public var signals: SignalHandling
    private weak var app: TestApp?

    init(executable: String, app: TestApp, signals: SignalHandling, onStart: (@MainActor (Run) -> Void)?) {
        self.executable = executable
        self.app = app
        self.signals = signals
        self.onStart = onStart
    }

    /// The app started a run (inside its `start()`).
    func started(_ process: SimulatedProcess) {
        guard let app else { return }
        let run = Run(process, app: app)
        runs.append(run)
        switch signals {
        case .default:
            break
        case .ignore:
            process.onSignal = { _ in }
        case .handle(let handler):
            process.onSignal = { [weak run] signal in
                if let run { handler(run, signal) }
            }
        }
        onStart?(run)
    }
}
