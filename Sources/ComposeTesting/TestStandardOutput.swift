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
}
