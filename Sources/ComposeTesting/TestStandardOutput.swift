internal import ComposeApp

/// The standard output of a ``TestApp`` (``TestApp/standardOutput``): what
/// the app wrote with `Application.print(_:)`, kept here instead of
/// reaching the terminal.
///
/// ```swift
/// app.standardInput.write("+\n")
/// #expect(app.standardOutput.lines.last == "count: 1")
/// ```
@MainActor
public struct TestStandardOutput {
    private let output: SimulatedStandardOutput

    init(output: SimulatedStandardOutput) {
        self.output = output
    }

    /// Everything the app wrote, in order.
    public var text: String { output.text }

    /// The lines the app wrote, without their newlines.
    public var lines: [String] { output.lines }

    /// Closes the reading end, as `head -1` does once it has its line
    /// (`app | head -1`): what the app prints from now on is dropped, and
    /// its writes fail as with `EPIPE`. `Application.print` goes on
    /// (dropping the lines); a terminal app printing plain lines
    /// (ComposeTerminal) hears of it at once, as a live one watching its
    /// pipe does, and shuts down with status 0.
    ///
    /// ```swift
    /// app.standardOutput.closeReader()
    /// app.runUntilExit()
    /// #expect(app.exitStatus == 0)
    /// ```
    public func closeReader() {
        output.closeReader()
    }

    /// Whether ``closeReader()`` was called.
    public var isReaderClosed: Bool { output.isReaderClosed }
}
