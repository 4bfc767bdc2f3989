internal import ComposeApp

/// The standard input of a ``TestApp`` (``TestApp/standardInput``): what
/// the test writes here, the app's `StandardInput` reads, as from a pipe.
///
/// ```swift
/// app.standardInput.write("sta")
/// app.standardInput.write("tus\nhelp\n")   // the app reads "status", "help"
/// app.standardInput.close()                // then end of input (didReachEnd)
/// ```
///
/// Bytes written before the app reads wait for it; a partial line waits for
/// its newline (a last line without one is read at end of input). Each call
/// runs what it made due in the app before it returns.
@MainActor
public struct TestStandardInput {
    private let app: TestApp
    private let input: SimulatedStandardInput

    init(app: TestApp, input: SimulatedStandardInput) {
        self.app = app
        self.input = input
    }

    /// Writes the UTF-8 bytes of `text`.
    public func write(_ text: String) {
        write(Array(text.utf8))
    }

    /// Writes `bytes`. Ignored once closed.
    public func write(_ bytes: [UInt8]) {
        app.perform("TestStandardInput.write(_:)") { input.write(bytes) }
    }

    /// Ends the input: once the app has read what was written, it reads end
    /// of input. Idempotent.
    public func close() {
        app.perform("TestStandardInput.close()") { input.close() }
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { input.isClosed }
}
