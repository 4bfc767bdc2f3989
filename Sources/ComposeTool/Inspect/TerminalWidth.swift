import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How wide `compose inspect`'s text lines may be: never cut into a pipe or
/// a file, the terminal's width at a terminal.
enum TerminalWidth {
    /// The columns text lines are cut at; 0 never cuts.
    ///
    /// - Parameters:
    ///   - requested: `--width`, which wins when given (0: never cut).
    ///   - isTerminal: Whether standard output is a terminal.
    ///   - terminalColumns: The terminal's width as the kernel tells it
    ///     (`TIOCGWINSZ`), if it does.
    ///   - environment: Where `COLUMNS` is read, when the kernel does not
    ///     tell.
    static func columns(
        requested: Int?,
        isTerminal: Bool = isatty(STDOUT_FILENO) == 1,
        terminalColumns: @autoclosure () -> Int? = windowColumns(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int {
        if let requested { return max(0, requested) }
        guard isTerminal else { return 0 }
        if let columns = terminalColumns(), columns > 0 { return columns }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        return 80
    }

    /// Standard output's window width (`ioctl(TIOCGWINSZ)`), if it is a
    /// terminal that knows it.
    static func windowColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
