import Logging

/// The terminal an app draws on: its size, the app's modes turned on and
/// exactly off again, one write per frame, typed bytes decoded into
/// ``TerminalInput`` events, and resizes. The runtime of terminal views
/// owns one; in a test context it is the context's simulated terminal.
///
/// ```swift
/// let device = TerminalDevice(context: context)
/// device.input += { input in ... }       // keys, pastes, mouse
/// device.resized += { size in ... }      // SIGWINCH
/// if device.start() { device.write(frame) } else { /* plain lines */ }
/// ```
///
/// - Raw mode: no echo, no line editing, and no signals from keys: Ctrl+C
///   arrives as `.ctrl("c")` (the app, or the runtime of views, decides
///   what it does), and Ctrl+Z as `.ctrl("z")` (the runtime of views
///   suspends with ``suspend()`` unless a binding takes it).
/// - Given back on every way out: ``stop()``, the runtime's shutdown,
///   `exit()`, a second shutdown signal, and a crash signal (ComposeApp's
///   `TerminalRestoration`).
/// - Not a terminal (standard output is a pipe or a file, or
///   `TERM=dumb`): ``isTerminal`` is false, ``start()`` returns false,
///   and nothing is ever written: no escape sequence reaches a pipe.
/// - A lone Escape is held by the decoder; when no byte follows within
///   ``escapeDelay`` (30 ms), it is the Escape key.
@MainActor
package final class TerminalDevice {
    /// Each key, paste or mouse event.
    package let input = Emitter<TerminalInput>()
    /// The new size after each resize.
    package let resized = Emitter<Size>()
    /// Sent once when input ends or reading fails (the terminal went away).
    package let didLoseInput = SignalEmitter()
    /// Sent when the app continues after ``suspend()`` (SIGCONT), its modes
    /// on again: what the terminal shows is not the app's last frame any
    /// more (the shell drew there), so the next one is drawn whole.
    package let didContinue = SignalEmitter()
    /// The modes turned on by ``start()``.
    package let modes: TerminalModes
    /// How long a lone Escape waits for the rest of a sequence.
    package var escapeDelay: Duration
    /// The size, as of the last resize (80x24 when the terminal does not say).
    package private(set) var size: Size
    /// Whether the modes are on (between ``start()`` and ``stop()``).
    package private(set) var isActive = false
    /// Whether the app stopped as a shell job (``suspend()``) and was not
    /// continued yet (in a test context, until SIGCONT).
    package private(set) var isSuspended = false
    /// Whether input is read without the modes (``startReading()``).
    private var isReading = false

    private var decoder: InputDecoder
    private let connection: TerminalConnection
    private weak var context: AppContext?
    private var escapeTimer: ScheduledAction?

    /// The terminal of `context` (or of the running app).
    package init(
        context: AppContext? = nil,
        modes: TerminalModes = .standard,
        limits: InputDecoder.Limits = InputDecoder.Limits(),
        escapeDelay: Duration = .milliseconds(30)
    ) {
        let context = context ?? AppContext.current
        self.context = context
        self.modes = modes
        self.escapeDelay = escapeDelay
        decoder = InputDecoder(limits: limits)
        connection = TerminalConnection(context: context)
        size = connection.size.map { Size(width: $0.columns, height: $0.rows) } ?? Size(width: 80, height: 24)
        connection.onInput = { [weak self] bytes in self?.received(bytes) }
        connection.onResize = { [weak self] columns, rows in self?.didResize(Size(width: columns, height: rows)) }
        connection.onError = { [weak self] error in self?.failed(error) }
        connection.onStopSignal = { [weak self] in self?.stopSignalReceived() }
    }

    isolated deinit {
        if let escapeTimer { context?.scheduler?.cancel(escapeTimer) }
        connection.close()
    }

    /// Whether there is a terminal to draw on (see the type's notes).
    package var isTerminal: Bool { connection.isTerminal }

    /// The writes that reached the terminal.
    package var writeCount: Int { connection.writeCount }

    /// Turns raw mode and ``modes`` on, then reads input and watches
    /// resizes. Returns false, changing nothing, when it is not a terminal
    /// or the terminal cannot be set (a diagnostic says why).
    @discardableResult
    package func start() -> Bool {
        guard !isActive else { return true }
        guard connection.isTerminal else { return false }
        let leave = modes.leaveSequence
        do {
            try connection.enter(restoring: leave)
            try connection.start()
        } catch {
            connection.leave()
            connection.stop()
            context?.report(Diagnostic(.terminalUnavailable, "The terminal could not be set up (\(error)): the app goes on without it."))
            return false
        }
        isActive = true
        if let current = connection.size { size = Size(width: current.columns, height: current.rows) }
        modes.enterSequence.withUnsafeBytes { connection.write($0) }
        return true
    }

    /// Reads input without turning any mode on: for an app without a
    /// terminal (``isTerminal`` false) whose standard input still brings
    /// keys (a pipe: `printf '++q' | stepper`). Returns false when it
    /// cannot read.
    @discardableResult
    package func startReading() -> Bool {
        guard !isActive, !isReading else { return isReading }
        do {
            try connection.startReading()
        } catch {
            context?.logger.error("Cannot read the app's standard input for keys: \(error)")
            return false
        }
        isReading = true
        return true
    }

    /// Calls `gone` once, on the loop, when standard output's reader goes
    /// away (a pipe whose reader exited), without waiting for a write to
    /// fail: for an app without a terminal printing plain lines. Only a
    /// pipe is watched (see ComposeApp's `TerminalConnection`).
    package func watchOutputReader(_ gone: @escaping @MainActor () -> Void) {
        connection.watchOutputReader(gone)
    }

    /// Writes `bytes` in one write (a frame). Returns false, writing
    /// nothing, while the modes are off (not started, stopped, or not a
    /// terminal).
    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        guard isActive else { return false }
        bytes.withUnsafeBytes { connection.write($0) }
        return true
    }

    /// Ctrl+Z: gives the terminal back (the modes and raw mode off, as
    /// ``stop()`` does, reading kept), stops the process's job as a shell
    /// does (SIGTSTP, default action), and once it is continued (SIGCONT:
    /// `fg`) turns raw mode and the modes on again, reads the size anew
    /// and sends ``didContinue``. Live, all of it happens inside this call
    /// (the process is stopped in between); in a test context the
    /// simulated terminal records the stop and continues when the test
    /// sends SIGCONT. Does nothing while the modes are off.
    package func suspend() {
        guard isActive, !isSuspended else { return }
        isActive = false
        isSuspended = true
        connection.suspend { [weak self] in self?.continued() }
    }

    /// SIGTSTP from outside (`kill -TSTP`) in raw mode: as Ctrl+Z, the
    /// terminal given back and the job stopped until it is continued.
    private func stopSignalReceived() {
        guard isActive, !isSuspended else { return }
        context?.logger.info("SIGTSTP: the terminal is given back and the app stops until it is continued (fg).")
        suspend()
    }

    private func continued() {
        guard isSuspended else { return }
        isSuspended = false
        do {
            try connection.enter(restoring: modes.leaveSequence)
        } catch {
            connection.stop()
            context?.report(Diagnostic(.terminalUnavailable, "The terminal could not be set up again after a suspension (\(error)): the app goes on without it."))
            didLoseInput.send()
            return
        }
        isActive = true
        if let current = connection.size {
            let newSize = Size(width: current.columns, height: current.rows)
            if newSize != size {
                size = newSize
                resized.send(newSize)
            }
        }
        modes.enterSequence.withUnsafeBytes { connection.write($0) }
        didContinue.send()
    }

    /// Turns the modes off and raw mode off exactly as they were, and
    /// stops reading. Idempotent.
    package func stop() {
        if isReading {
            isReading = false
            connection.stop()
        }
        // Suspended, the modes are off already but input is still read.
        let wasSuspended = isSuspended
        isSuspended = false
        guard isActive || wasSuspended else { return }
        isActive = false
        cancelEscapeTimer()
        connection.stop()
        connection.leave()
    }

    // MARK: Input

    private func received(_ bytes: UnsafeRawBufferPointer) {
        cancelEscapeTimer()
        let events = decoder.decode(bytes)
        reportProblems()
        for event in events { input.send(event) }
        if decoder.isHolding { armEscapeTimer() }
    }

    private func armEscapeTimer() {
        guard let scheduler = context?.scheduler else { return }
        escapeTimer = scheduler.schedule(after: escapeDelay) { [weak self] in
            guard let self else { return }
            self.escapeTimer = nil
            for event in self.decoder.flush() { self.input.send(event) }
        }
    }

    private func cancelEscapeTimer() {
        guard let escapeTimer else { return }
        self.escapeTimer = nil
        context?.scheduler?.cancel(escapeTimer)
    }

    private func reportProblems() {
        for problem in decoder.takeProblems() {
            let code: Diagnostic.Code = switch problem {
            case .pasteTruncated: .terminalPasteTruncated
            case .sequenceTooLong: .terminalSequenceTooLong
            }
            if let context {
                context.report(Diagnostic(code, problem.description))
            } else {
                Diagnostics.report(Diagnostic(code, problem.description))
            }
        }
    }

    private func didResize(_ newSize: Size) {
        guard newSize != size else { return }
        size = newSize
        resized.send(newSize)
    }

    private func failed(_ error: LoopError?) {
        if let error { context?.logger.error("The terminal's input failed: \(error)") }
        didLoseInput.send()
    }
}
