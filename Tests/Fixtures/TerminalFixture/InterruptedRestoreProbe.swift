// A probe of the terminal's restoration, run by
// TerminalRestorationTests.aCrashSignalInsideARestoreStillGivesTheTerminalBack
// (TERMINAL_FIXTURE_PROBE=interrupted-restore, standard input a
// pseudo-terminal of the test's): a crash signal arrives while this
// thread is inside `TerminalRestoration.restore()`, between taking the
// restore and putting the termios back. The undoing bytes go to a pipe
// whose reading end is closed, so their write raises SIGPIPE there, and
// its handler raises SIGQUIT: deterministic, no timing. The process dies
// of SIGQUIT (its default action); the test then reads the terminal.
// Plain print and fflush: the app has not started, and the process dies.
import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

enum InterruptedRestoreProbe {
    /// Runs the probe and exits, when the environment asks for it.
    static func runIfAsked() {
        guard let probe = getenv("TERMINAL_FIXTURE_PROBE"), String(cString: probe) == "interrupted-restore" else { return }
        var limit = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)   // the default action of SIGQUIT dumps core: none
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fail("pipe") }
        close(ends[0])
        _ = signal(SIGPIPE) { _ in _ = raise(SIGQUIT) }
        do {
            try TerminalRestoration.arm(termiosDescriptor: STDIN_FILENO, outputDescriptor: ends[1], restoring: Array("\u{1B}[?25h".utf8))
        } catch {
            fail("arm: \(error)")
        }
        print("armed")
        fflush(nil)
        TerminalRestoration.restore()
        print("survived the signal")
        fflush(nil)
        exit(0)
    }

    static func fail(_ message: String) -> Never {
        print("probe failed: \(message)")
        fflush(nil)
        exit(2)
    }
}
