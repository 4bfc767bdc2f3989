public import ComposeApp

extension ScriptedProcess {
    /// One run of a scripted executable: the child the app started. The
    /// test (or the script's handlers) writes its output and ends it, and
    /// sees what the app sent it.
    ///
    /// ```swift
    /// let run = try #require(sort.runs.last)
    /// #expect(run.inputText == "b\na\n")         // what the app wrote
    /// #expect(run.isInputClosed)                 // and closed
    /// run.writeOutput("a\nb\n")
    /// run.exit(status: 0)
    /// ```
    ///
    /// Each call runs what it made due in the app before it returns; made
    /// from a handler (inside the app's call), it is delivered after that
    /// call.
    @MainActor
    public final class Run {
        private let process: SimulatedProcess
        private weak var app: TestApp?
        private var inputLines = LineReader()

        /// Runs when input arrived from the app, or ended: a script that
        /// answers its input reads it here.
        ///
        /// ```swift
        /// app.scriptProcess("cat") { run in
        ///     run.onInput = { run in
        ///         for line in run.readInputLines() { run.writeOutput(line + "\n") }
        ///         if run.isInputClosed { run.exit(status: 0) }
        ///     }
        /// }
        /// ```
        public var onInput: (@MainActor (Run) -> Void)?

        init(_ process: SimulatedProcess, app: TestApp) {
            self.process = process
            self.app = app
            process.onInput = { [weak self] in
                guard let self else { return }
                onInput?(self)
            }
        }

        /// The executable as the app gave it (a name or a path).
        public var executable: String { process.executable }
        /// The arguments after `argv[0]`.
        public var arguments: [String] { process.arguments }
        /// The environment the app gave, or `nil` when the child inherits
        /// the app's.
        public var environment: [String: String]? { process.environment }
        /// The working directory the app gave, if any.
        public var workingDirectory: String? { process.workingDirectory }
        /// The process ID the app sees (made up, unique in the app).
        public var pid: Int32 { process.pid }

        // MARK: Input

        /// Every byte the app wrote to the child's standard input.
        public var input: [UInt8] { process.input }
        /// What the app wrote to the child's standard input, as UTF-8 text.
        public var inputText: String { String(decoding: process.input, as: UTF8.self) }
        /// Whether the child's input ended: the app closed it (or it is
        /// `/dev/null`, the app made the process without `acceptsInput`).
        public var isInputClosed: Bool { process.isInputClosed }

        /// The complete input lines since the last call (without `\n` or
        /// `\r\n`); a line still missing its newline waits for a later call.
        public func readInputLines() -> [String] {
            inputLines.readLines(process.input)
        }

        // MARK: Signals and exit

        /// The signals the child received, in order (none after its exit).
        public var signalsReceived: [ProcessSignal.Name] { process.signalsReceived }
        /// How the run ended, once it did (the script's exit, or a signal).
        public var termination: ChildProcess.Termination? { process.termination }
        /// Whether the run has not ended yet.
        public var isRunning: Bool { process.termination == nil }
        /// Whether the app paused reading this child's output (a relay to
        /// a sink that is full): what the script writes meanwhile is held
        /// and delivered when the app resumes, as a pipe would.
        public var isOutputPaused: Bool { process.isOutputPaused }
        /// Bytes written by the script and held while the app's reading is
        /// paused.
        public var heldOutputBytes: Int { process.heldOutputBytes }

        // MARK: Output

        /// Writes the UTF-8 bytes of `text` to the child's standard output.
        /// Ignored after the run ended.
        public func writeOutput(_ text: String) {
            writeOutput(Array(text.utf8))
        }

        /// Writes `bytes` to the child's standard output.
        public func writeOutput(_ bytes: [UInt8]) {
            perform("ScriptedProcess.Run.writeOutput(_:)") { process.writeOutput(bytes) }
        }

        /// Writes the UTF-8 bytes of `text` to the child's standard error.
        public func writeError(_ text: String) {
            writeError(Array(text.utf8))
        }

        /// Writes `bytes` to the child's standard error.
        public func writeError(_ bytes: [UInt8]) {
            perform("ScriptedProcess.Run.writeError(_:)") { process.writeOutput(bytes, isError: true) }
        }

        /// Ends the run with `status`: the app gets the output written
        /// before, then `didExit` with `Termination(status: status, signal: nil)`.
        /// Ignored once the run ended.
        public func exit(status: Int32 = 0) {
            perform("ScriptedProcess.Run.exit(status:)") { process.exit(ChildProcess.Termination(status: Int64(status), signal: nil)) }
        }

        /// Ends the run as killed by `signal`: `didExit` gets
        /// `Termination(status: 0, signal: signal.rawValue)`.
        public func exit(signal: ProcessSignal.Name) {
            perform("ScriptedProcess.Run.exit(signal:)") { process.exit(ChildProcess.Termination(status: 0, signal: signal.rawValue)) }
        }

        private func perform(_ call: @autoclosure () -> String, _ body: () -> Void) {
            if let app { app.perform(call(), body) } else { body() }
        }
    }
}
