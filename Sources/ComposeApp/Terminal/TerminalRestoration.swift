internal import CLibUV

/// The terminal given back on every way out: raw mode and the modes a
/// terminal app turned on (the alternate screen, a hidden cursor, ...)
/// undone on a normal exit, on `exit()` from anywhere (an atexit hook), on
/// the runtime's immediate exit at a second shutdown signal, and on a crash
/// signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS,
/// SIGQUIT), where the action that was there before (Swift's backtracer,
/// or the default) then runs.
///
/// The state lives in C (CLibUV's `terminal.h`): a signal handler can only
/// reach process-wide memory and call async-signal-safe functions, so the
/// saved termios and the undoing bytes are kept there, ready, while the
/// terminal is changed. It is the libraries' one process-wide state, as
/// the terminal and the signal actions are the process's; a test context
/// never arms it (its terminal is simulated). docs/unsafe.md has the proof.
/// Every call into that state is in this file.
package enum TerminalRestoration {
    /// The longest undoing sequence ``arm(termiosDescriptor:outputDescriptor:restoring:)`` keeps.
    package static let sequenceCapacity = Int(COMPOSE_TERMINAL_SEQUENCE_CAPACITY)

    /// Puts the terminal of `termiosDescriptor` in raw mode (no echo, no
    /// line editing, no signals from Ctrl+C / Ctrl+Z / Ctrl+\, which
    /// arrive as keys; output still turns `"\n"` into `"\r\n"`), unless it
    /// is `nil`, and keeps `sequence` to write to `outputDescriptor` when
    /// the terminal is given back. Throws (and changes nothing) when the
    /// terminal cannot be read or set, when it is armed already, or when
    /// `sequence` is longer than ``sequenceCapacity``.
    package static func arm(termiosDescriptor: Int32?, outputDescriptor: Int32, restoring sequence: [UInt8]) throws(LoopError) {
        let result = sequence.withUnsafeBytes { bytes in
            compose_terminal_arm(termiosDescriptor ?? -1, outputDescriptor, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
        try LoopError.check(result, "tcsetattr", context: "raw mode for the terminal of file descriptor \(termiosDescriptor ?? outputDescriptor)")
    }

    /// Gives the terminal back now if it is changed: writes the undoing
    /// bytes (blocking), then the termios as it was. Idempotent; returns
    /// whether it restored.
    @discardableResult
    package static func restore() -> Bool {
        compose_terminal_restore() == 1
    }

    /// Stops the process's job as Ctrl+Z in a shell does: SIGTSTP to its
    /// process group with the default action (stop), returning once the
    /// job is continued (SIGCONT: `fg` or `bg`). The terminal must have
    /// been given back first (``restore()``). Returns `false` when the
    /// process was not stopped: SIGTSTP is ignored (started without job
    /// control) or could not be sent. (In an orphaned process group the
    /// kernel discards it: this returns at once.)
    @discardableResult
    package static func stopAsJob() -> Bool {
        compose_terminal_stop_as_job() == 1
    }

    /// Whether SIGTSTP is ignored (started without job control, or with
    /// `trap '' TSTP`): a handler installed for it would replace the
    /// ignoring, and ``stopAsJob()`` would then stop a job it must not.
    package static var stopIsIgnored: Bool {
        compose_terminal_stop_is_ignored() == 1
    }

    /// Whether the terminal is changed and not given back yet.
    package static var isArmed: Bool {
        compose_terminal_is_armed() == 1
    }

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        compose_terminal_isatty(descriptor) == 1
    }

    /// The size of the terminal of `descriptor` (columns, rows), or nil.
    package static func size(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        var columns: Int32 = 0
        var rows: Int32 = 0
        guard compose_terminal_size(descriptor, &columns, &rows) == 0 else { return nil }
        return (Int(columns), Int(rows))
    }
}
