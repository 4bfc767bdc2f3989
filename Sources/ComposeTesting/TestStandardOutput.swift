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
    /// (dropping the lines); a terminal app's plain-line output shuts the
    /// app down (ComposeTerminal).
    ///
    /// ```swift
    /// app.standardOutput.closeReader()
    /// app.run { app.root.stepper.count += 1 }
    /// #expect(app.hasExited)
    /// ```
    public func closeReader() {
        output.closeReader()
    }

    /// Whether ``closeReader()`` was called.
    public var isReaderClosed: Bool { output.isReaderClosed }
}
