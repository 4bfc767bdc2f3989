import Compose

/// The standard output of a test context: what the app writes with
/// `Application.print(_:)`, kept for the test instead of reaching the
/// terminal (`TestApp.standardOutput`).
@MainActor
package final class SimulatedStandardOutput {
    /// Everything written, in order.
    package private(set) var text = ""

    init() {}

    /// Appends `text` as the app wrote it.
    package func write(_ text: String) {
        self.text += text
    }

    /// The lines written so far (a last line without its newline included).
    package var lines: [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

extension AppContext {
    /// The standard output of a test context (`TestApp`'s); `nil` in a
    /// live app.
    package var simulatedStandardOutput: SimulatedStandardOutput? { simulation?.standardOutput }
}
