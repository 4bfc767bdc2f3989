import Compose
import Logging
internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// The terminal of an app, byte-wise: its size, raw mode with the undoing
/// armed (``TerminalRestoration``), the bytes typed, the bytes to show,
/// and resizes. ComposeTerminal's device builds on it; in a live app it is
/// file descriptors 0 and 1 on the loop, in a test context the context's
/// ``SimulatedTerminal``.
///
/// Live: it is a terminal when standard output is one and `TERM` is not
/// `dumb`; otherwise ``isTerminal`` is false and it reads, writes and
/// changes nothing (the app writes plain lines instead). Keys are read
/// from standard input (a terminal, or a pipe); raw mode is set on
/// standard input's terminal, else standard output's. Writes are queued on
/// the loop (a `uv_tty_t` over a private, non-blocking reopening of the
/// terminal, as libuv does), one `write(2)` each when the terminal takes
/// them; nothing blocks the loop.
@MainActor
package final class TerminalConnection {
    /// Whether there is a terminal to draw on.
    package let isTerminal: Bool
    /// Each chunk of bytes read (typed or pasted).
    package var onInput: (@MainActor (UnsafeRawBufferPointer) -> Void)?
    /// The terminal's new size after a resize (SIGWINCH).
    package var onResize: (@MainActor (_ columns: Int, _ rows: Int) -> Void)?
    /// A read or write failed (reading stops on a read failure), or input ended.
    package var onError: (@MainActor (LoopError?) -> Void)?
    /// SIGTSTP arrived (`kill -TSTP`) while raw mode is on: what Ctrl+Z
    /// does (see ``suspend(continued:)``) is up to the owner. Not in raw
    /// mode, the signal does what its default action does: the job stops.
    package var onStopSignal: (@MainActor () -> Void)?
    /// Writes made (``write(_:)`` calls that reached the terminal).
    package private(set) var writeCount = 0
    /// Whether raw mode and the undoing are armed (``enter(restoring:)``).
    package private(set) var isEntered = false

    private let context: AppContext?
    private let simulated: SimulatedTerminal?
    private var simulatedConnection: SimulatedTerminal.Connection?
    private var input: StreamHandle?
    private var output: StreamHandle?
    private var resize: SignalHandle?
    private var stopSignal: SignalHandle?
    private var simulatedStopSignal: Subscription?
    private var outputWatch: PollHandle?

    /// The terminal of `context` (or of the running app).
    package init(context: AppContext?) {
        let context = context ?? AppContext.current
        self.context = context
        if let simulated = context?.simulatedTerminal {
            self.simulated = simulated
            isTerminal = simulated.isTerminal
        } else {
            simulated = nil
            let term = getenv("TERM").map { String(cString: $0) }
            isTerminal = TerminalRestoration.isTerminal(STDOUT_FILENO) && term != "dumb"
        }
    }

    isolated deinit {
        close()
    }

    /// The size in (columns, rows), or nil when unknown.
    package var size: (columns: Int, rows: Int)? {
        guard isTerminal else { return nil }
        if let simulated { return (simulated.columns, simulated.rows) }
        guard let size = TerminalRestoration.size(of: STDOUT_FILENO), size.columns > 0, size.rows > 0 else { return nil }
        return size
    }

    /// Starts reading input, watching resizes and taking SIGTSTP.
    package func start() throws(LoopError) {
        guard isTerminal else { return }
        try startReading()
        if simulated != nil {
            guard simulatedStopSignal == nil, let context else { return }
            simulatedStopSignal = context.simulatedSignals += { [weak self] number in
                if number == SIGTSTP { self?.receivedStopSignal() }
            }
            return
        }
        guard resize == nil else { return }
        let loop = try EventLoop.resolve(context, for: "TerminalConnection.start")
        let handle = try SignalHandle(loop: loop)
        resize = handle
        try handle.start(SIGWINCH) { [weak self] _ in
            guard let self, let size = self.size else { return }
            self.onResize?(size.columns, size.rows)
        }
        handle.keepsLoopAlive = false
        // Raw mode turns the terminal's Ctrl+Z into a key; a SIGTSTP sent
        // from outside is taken here, so that the terminal is given back
        // before the job stops rather than left raw. Not when it is
        // ignored (no job control): libuv's handler would replace the
        // ignoring, for good (closing the handle sets the default action),
        // and Ctrl+Z would then stop a job that nobody may continue.
        guard !TerminalRestoration.stopIsIgnored else { return }
        let stop = try SignalHandle(loop: loop)
        stopSignal = stop
        try stop.start(SIGTSTP) { [weak self] _ in self?.receivedStopSignal() }
        stop.keepsLoopAlive = false
    }

    /// SIGTSTP: in raw mode, the owner's Ctrl+Z (``onStopSignal``);
    /// otherwise the job stops, as the signal's default action would have
    /// stopped it (live; a test's terminal has no job to stop).
    private func receivedStopSignal() {
        if isEntered, let onStopSignal {
            onStopSignal()
        } else if simulated == nil {
            TerminalRestoration.stopAsJob()
        }
    }

    /// Starts reading input only: from standard input when it is a
    /// terminal or a pipe, terminal or not on the output side (an app
    /// without a terminal still takes keys from a pipe).
    package func startReading() throws(LoopError) {
        if let simulated {
            guard simulatedConnection == nil else { return }
            simulatedConnection = simulated.connect(
                onInput: { [weak self] bytes in self?.onInput?(bytes) },
                onResize: { [weak self] columns, rows in self?.onResize?(columns, rows) },
                onEnd: { [weak self] in self?.onError?(nil) }
            )
            return
        }
        guard input == nil, [UV_TTY, UV_NAMED_PIPE].contains(uv_guess_handle(STDIN_FILENO)) else { return }
        let loop = try EventLoop.resolve(context, for: "TerminalConnection.startReading")
        let handle = try StreamHandle(loop: loop, fileDescriptor: STDIN_FILENO)
        input = handle
        try handle.startReading({ [weak self] bytes in
            guard let self else { return }
            if let bytes {
                self.onInput?(bytes)
            } else {
                self.onError?(nil)
            }
        }, onError: { [weak self] error in self?.onError?(error) })
    }

    /// Calls `gone` once, on the loop, when standard output's reader goes
    /// away, without waiting for a write to fail: for an app printing
    /// plain lines into a pipe (`app | head -1`) whose screen may not
    /// change again. Live, only when standard output is a pipe (a FIFO):
    /// a writing end of the pipe of its own (`/proc/self/fd/1` opened
    /// again, so that the shared description stays blocking) is watched
    /// for the error a pipe reports once it has no reader (`EPOLLERR`).
    /// A file, a socket or a terminal is not watched (a write's `EPIPE`
    /// still tells). In a test context: when the test closes the simulated
    /// reader (`TestApp.standardOutput.closeReader()`).
    package func watchOutputReader(_ gone: @escaping @MainActor () -> Void) {
        guard outputWatch == nil else { return }
        if let output = context?.simulatedStandardOutput {
            let context = context
            output.whenReaderCloses { context?.simulate(gone) }
            return
        }
        guard simulated == nil else { return }
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return }
        let descriptor = open("/proc/self/fd/1", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            // ENXIO: a FIFO with no reader left cannot be opened for
            // writing without blocking; anything else: not watched.
            if errno == ENXIO { context?.simulate(gone) }
            return
        }
        do {
            let loop = try EventLoop.resolve(context, for: "TerminalConnection.watchOutputReader")
            outputWatch = try PollHandle.watching(ownedDescriptor: descriptor, on: loop) { [weak self] in
                self?.outputWatch?.close()
                self?.outputWatch = nil
                gone()
            }
        } catch {
            context?.logger.debug("Standard output's reader is not watched: \(error)")
        }
    }

    /// Raw mode, and `sequence` armed to undo what the app turns on (see
    /// ``TerminalRestoration``). Does nothing when it is not a terminal.
    package func enter(restoring sequence: [UInt8]) throws(LoopError) {
        guard isTerminal, !isEntered else { return }
        if let simulated {
            simulated.enter(restoring: sequence)
        } else {
            let termios: Int32? = TerminalRestoration.isTerminal(STDIN_FILENO) ? STDIN_FILENO : STDOUT_FILENO
            try TerminalRestoration.arm(termiosDescriptor: termios, outputDescriptor: STDOUT_FILENO, restoring: sequence)
        }
        isEntered = true
    }

    /// Writes the undoing sequence and puts the termios back (at once,
    /// blocking: the app is leaving). Idempotent. Frames still queued are
    /// dropped first (their handle closes): written after the undoing
    /// bytes they would land on the shell's screen.
    package func leave() {
        guard isEntered else { return }
        isEntered = false
        if let simulated {
            simulated.leave()
        } else {
            output?.close()
            output = nil
            TerminalRestoration.restore()
        }
    }

    /// Stops the app as a shell job (Ctrl+Z): gives the terminal back
    /// (``leave()``: the undoing bytes, the termios as it was), stops the
    /// process's job with SIGTSTP's default action, and once it is
    /// continued (SIGCONT: `fg`) calls `continued`, which enters again.
    /// Live, the process stops inside this call and `continued` runs before
    /// it returns (at once when SIGTSTP is ignored: no job control). In a
    /// test context the simulated terminal records the stop
    /// (``SimulatedTerminal/isSuspended``) and calls `continued` when the
    /// test sends SIGCONT (`app.send(.continue)`). Does nothing when not
    /// entered.
    package func suspend(continued: @escaping @MainActor () -> Void) {
        guard isEntered else { return }
        leave()
        if let simulated {
            simulated.suspend(continued: continued)
            return
        }
        if !TerminalRestoration.stopAsJob() {
            context?.logger.info("Ctrl+Z: SIGTSTP is ignored (no job control): the app goes on.")
        }
        continued()
    }

    /// Shows `bytes`: one write, queued on the loop (a test context's
    /// terminal keeps them). Does nothing when it is not a terminal.
    package func write(_ bytes: UnsafeRawBufferPointer) {
        guard isTerminal, bytes.count > 0 else { return }
        writeCount += 1
        if let simulated {
            simulated.write(bytes)
            return
        }
        if output == nil {
            do {
                let handle = try StreamHandle(loop: EventLoop.resolve(context, for: "TerminalConnection.write"), fileDescriptor: STDOUT_FILENO)
                handle.reportErrors { [weak self] error in self?.onError?(error) }
                handle.keepsLoopAlive = false
                output = handle
            } catch {
                onError?(error)
                return
            }
        }
        output?.write(copying: bytes)
    }

    /// Stops reading and watching (the terminal stays as it is: see ``leave()``).
    package func stop() {
        input?.close()
        input = nil
        outputWatch?.close()
        outputWatch = nil
        resize?.close()
        resize = nil
        stopSignal?.close()
        stopSignal = nil
        simulatedStopSignal?.cancel()
        simulatedStopSignal = nil
        simulatedConnection?.close()
        simulatedConnection = nil
    }

    /// Leaves, stops, and closes the output.
    package func close() {
        leave()
        stop()
        output?.close()
        output = nil
    }
}
