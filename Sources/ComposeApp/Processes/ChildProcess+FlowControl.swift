import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    // MARK: Flow control

    /// Stops reading the child's output and error output until
    /// ``resumeReading()``: the child blocks once its pipes are full. What
    /// a relay to a full sink does:
    ///
    /// ```swift
    /// child.output.relay(to: connection, pausing: child)
    /// ```
    ///
    /// A scripted child of a test context holds what its script writes
    /// while paused (`run.isOutputPaused`), and delivers it on resume.
    public func pauseReading() {
        simulated?.pauseOutput()
        outputPipe?.stopReading()
        errorPipe?.stopReading()
    }

    /// Reads the child's output again after ``pauseReading()``.
    public func resumeReading() {
        simulated?.resumeOutput()
        do {
            try outputPipe?.startReading()
            try errorPipe?.startReading()
        } catch {
            report(error)
        }
    }

    // MARK: LoopResource

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [output, errorOutput, didExit, errors] }

    /// Terminates the running child (``terminate()``), as its component
    /// does when it disappears; ``start()`` runs it again after ``didExit``.
    public func stop() {
        terminate()
    }

    /// Logs `error` and sends it on ``errors``: the child could not start
    /// as its component appeared. When the process ``isFatal``, its
    /// component fails with `error`.
    public func didFailToStart(_ error: LoopError) {
        report(error)
        if isFatal { output.ownerNode?.fail(error) }
    }
}
