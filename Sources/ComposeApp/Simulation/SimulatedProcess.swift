internal import CLibUV
import Compose
#if canImport(Glibc)
import Glibc
#endif

/// One run of a scripted executable in a test context: the app's
/// `ChildProcess` talks to it instead of a process, and the test's script
/// plays the child (writes its output, reads its input, receives its
/// signals, exits).
///
/// Everything reaches the other side through the context's clock, in the
/// order it happened, never inside the call that caused it: output and the
/// exit to the app, input and signals to the script.
///
/// **Signals.** `SIGKILL` ends the run. Another signal goes to the script's
/// ``onSignal`` if it has one; otherwise it does what it does by default
/// to a process: `SIGCHLD`, `SIGCONT`, `SIGURG`, `SIGWINCH` and the stop
/// signals are received and change nothing, every other signal ends the run
/// with that signal (so `SIGTERM` from a termination or a graceful shutdown
/// ends it at once).
@MainActor
package final class SimulatedProcess {
    /// The executable as the app gave it.
    package let executable: String
    package let arguments: [String]
    /// The environment the app gave, `nil` when the child inherits the app's.
    package let environment: [String: String]?
    package let workingDirectory: String?
    /// Whether the child's standard input is a pipe the app writes to
    /// (otherwise it reads `/dev/null`).
    package let acceptsInput: Bool
    package let pid: Int32

    /// Every byte the app wrote to the child's standard input, as the child
    /// has read it.
    package private(set) var input: [UInt8] = []
    /// Whether the child read end of input: the app closed it (or the child
    /// reads `/dev/null`).
    package private(set) var isInputClosed: Bool
    /// The signals the child received, in order (not those sent after its
    /// exit).
    package private(set) var signalsReceived: [ProcessSignal.Name] = []
    /// How the run ended, once the script ended it (its delivery to the app
    /// may still be pending).
    package private(set) var termination: ChildProcess.Termination?
    /// The script's handling of a signal other than `SIGKILL`; `nil` for
    /// the default dispositions (see the type's documentation).
    package var onSignal: (@MainActor (ProcessSignal.Name) -> Void)?
    /// Called when input arrived or ended.
    package var onInput: (@MainActor () -> Void)?
    /// Whether the app paused reading the child's output
    /// (`ChildProcess.pauseReading()`, a relay to a full sink): what the
    /// script writes meanwhile is held, as a full pipe would hold it, and
    /// delivered when the app resumes.
    package private(set) var isOutputPaused = false
    /// Bytes written while the output was paused, not yet delivered.
    package var heldOutputBytes: Int { heldOutput.reduce(0) { $0 + $1.bytes.count } }
    private var heldOutput: [(bytes: [UInt8], isError: Bool)] = []
    /// An exit that waits for held output to be delivered.
    private var heldExit: ChildProcess.Termination?

    // The app's side, set by `ChildProcess`.
    var onOutput: (@MainActor (UnsafeRawBufferPointer, _ isError: Bool) -> Void)?
    var onInputFailed: (@MainActor (LoopError) -> Void)?
    var onExit: (@MainActor (ChildProcess.Termination) -> Void)?
    /// Whether the app closed the child's input (or never had one).
    private(set) var isInputClosedByApp: Bool

    private let script: SimulatedProcesses.Script?
    /// Weak: the context owns its world, and the world its runs.
    private weak var context: AppContext?
    private var pendingKill: ScheduledAction?

    init(
        executable: String,
        arguments: [String],
        environment: [String: String]?,
        workingDirectory: String?,
        acceptsInput: Bool,
        pid: Int32,
        script: SimulatedProcesses.Script?,
        context: AppContext
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.acceptsInput = acceptsInput
        self.pid = pid
        self.script = script
        self.context = context
        isInputClosed = !acceptsInput
        isInputClosedByApp = !acceptsInput
        // A running child keeps the app running, until its exit reached
        // the app.
        context.beginWork()
    }

    /// Runs the script, once the app's side is connected.
    func begin() {
        script?(self)
    }

    // MARK: The child's side (the test's script)

    /// Writes `bytes` to the child's standard output (or, with `isError`,
    /// its standard error). Ignored after the child exited.
    package func writeOutput(_ bytes: [UInt8], isError: Bool = false) {
        guard termination == nil, !bytes.isEmpty else { return }
        context?.simulate { [weak self] in
            guard let self else { return }
            if isOutputPaused || !heldOutput.isEmpty {
                heldOutput.append((bytes, isError))
            } else {
                bytes.withUnsafeBytes { onOutput?($0, isError) }
            }
        }
    }

    /// Ends the run (with an exit status, or killed by a signal). Output
    /// written before reaches the app first. Ignored after the first call.
    package func exit(_ termination: ChildProcess.Termination) {
        guard self.termination == nil else { return }
        self.termination = termination
        context?.simulate { [weak self] in
            guard let self else { return }
            // A child ended by a signal leaves what the app did not read
            // unread (the app closes the pipe of a dead child); an exit
            // comes after the output written before it.
            if termination.signal != nil { heldOutput.removeAll() }
            if heldOutput.isEmpty {
                exitReached(termination)
            } else {
                heldExit = termination
            }
        }
    }

    private func exitReached(_ termination: ChildProcess.Termination) {
        if let pendingKill { context?.scheduler?.cancel(pendingKill) }
        pendingKill = nil
        let onExit = onExit
        onOutput = nil
        onInputFailed = nil
        self.onExit = nil
        context?.endWork()
        onExit?(termination)
    }

    // MARK: The app's side

    /// The app stopped reading the output pipes.
    func pauseOutput() {
        isOutputPaused = true
    }

    /// The app reads the output pipes again: held output is delivered, in
    /// order, on the clock (and a held exit after it), until the app pauses
    /// again.
    func resumeOutput() {
        isOutputPaused = false
        guard !heldOutput.isEmpty || heldExit != nil else { return }
        context?.simulate { [weak self] in self?.deliverHeld() }
    }

    private func deliverHeld() {
        while !isOutputPaused, !heldOutput.isEmpty {
            let (bytes, isError) = heldOutput.removeFirst()
            bytes.withUnsafeBytes { onOutput?($0, isError) }
        }
        if heldOutput.isEmpty, let heldExit {
            self.heldExit = nil
            exitReached(heldExit)
        }
    }

    /// Sends `signal` to the child (it arrives on the clock).
    func kill(_ signal: ProcessSignal.Name) {
        context?.simulate { [weak self] in
            self?.receive(signal)
        }
    }

    private func receive(_ signal: ProcessSignal.Name) {
        // A process that has exited receives nothing (and, like a zombie
        // not yet reaped, sending to it is no error).
        guard termination == nil else { return }
        signalsReceived.append(signal)
        if signal.rawValue == SIGKILL {
            exit(ChildProcess.Termination(status: 0, signal: SIGKILL))
        } else if let onSignal {
            onSignal(signal)
        } else if !Self.defaultIgnored.contains(signal.rawValue) {
            exit(ChildProcess.Termination(status: 0, signal: signal.rawValue))
        }
    }

    /// Signals whose default disposition does not end a process (ignored,
    /// or stop and continue, which a run does not model).
    private static let defaultIgnored: Set<Int32> = [SIGCHLD, SIGCONT, SIGURG, SIGWINCH, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU]

    /// Whether a termination's `SIGKILL` is pending (``kill(after:_:)``).
    var isTerminating: Bool { pendingKill != nil }

    /// Runs `action` after `delay` on the context's clock unless the run's
    /// exit reached the app first (a termination's grace period).
    func kill(after delay: Duration, _ action: @escaping @MainActor () -> Void) {
        guard pendingKill == nil else { return }
        pendingKill = context?.simulate(after: delay) { [weak self] in
            self?.pendingKill = nil
            action()
        }
    }

    /// Writes `bytes` to the child's standard input. After the child exited
    /// (and before the app knows), the write fails with `EPIPE`, as writing
    /// to a pipe nobody reads does.
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard !isInputClosedByApp, bytes.count > 0 else { return }
        let copy = [UInt8](bytes)
        context?.simulate { [weak self] in
            guard let self else { return }
            guard termination == nil else {
                isInputClosedByApp = true
                onInputFailed?(LoopError("uv_write", code: UV_EPIPE.rawValue))
                return
            }
            input.append(contentsOf: copy)
            onInput?()
        }
    }

    /// Ends the child's standard input after what was written. Idempotent.
    func closeInput() {
        guard !isInputClosedByApp else { return }
        isInputClosedByApp = true
        context?.simulate { [weak self] in
            guard let self, !isInputClosed else { return }
            isInputClosed = true
            onInput?()
        }
    }
}
