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
        isReadingPaused = true
        simulated?.pauseOutput()
        outputPipe?.stopReading()
        errorPipe?.stopReading()
    }

    /// Reads the child's output again after ``pauseReading()``.
    public func resumeReading() {
        isReadingPaused = false
        // Frames that wait hold the output until they are delivered.
        let framesHold = outputFrames?.holdsInput ?? false
        if !framesHold { simulated?.resumeOutput() }
        do {
            if !framesHold { try outputPipe?.startReading() }
            try errorPipe?.startReading()
        } catch {
            report(error)
        }
        outputFrames?.ownerResumed()
    }

    // MARK: LoopResource

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] {
        var emitters: [any EmitterProtocol] = [output, errorOutput, didExit, errors]
        if let outputFrames { emitters.append(outputFrames.buffering.frames) }
        return emitters
    }

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
