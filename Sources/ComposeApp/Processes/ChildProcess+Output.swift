import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    // MARK: Output, then exit (see "Output, then exit")

    enum Phase {
        /// Never started, or the last run is over (``didExit`` was sent).
        case idle
        /// The child runs.
        case running
        /// The child exited; its pipes are being read to their end.
        case draining
    }

    /// Standard output or standard error.
    enum Stream {
        case output, error
    }

    /// How long, after the exit, pipes still held open by a descendant are
    /// waited for.
    static let drainTimeout: Duration = .milliseconds(200)

    /// Splits the output of a new run into lines; with `pipes` (a real
    /// run), within the loop's line budget per pipe and turn.
    func startLines(on pipes: (output: StreamHandle, error: StreamHandle)?) {
        let outputLines = LineDelivery(LineBuffer(limit: maximumLineLength)) { [weak self] piece in
            self?.deliver(piece, on: .output)
        }
        let errorLines = LineDelivery(LineBuffer(limit: maximumLineLength)) { [weak self] piece in
            self?.deliver(piece, on: .error)
        }
        if let pipes {
            outputLines.attach(to: pipes.output)
            errorLines.attach(to: pipes.error)
        }
        self.outputLines = outputLines
        self.errorLines = errorLines
        outputFrames?.reading(on: pipes?.output.loop)
    }

    func read(_ pipe: StreamHandle, as stream: Stream) {
        do {
            try pipe.startReading({ [weak self] bytes in
                self?.received(bytes, on: stream)
            }, onError: { [weak self] error in
                self?.report(error)
                self?.ended(stream)
            })
        } catch {
            report(error)
            ended(stream)
        }
    }

    func received(_ bytes: UnsafeRawBufferPointer?, on stream: Stream) {
        guard let bytes else {
            ended(stream)
            return
        }
        switch stream {
        case .output:
            if let outputFrames {
                outputFrames.received(bytes)
            } else {
                outputLines?.append(bytes)
            }
        case .error: errorLines?.append(bytes)
        }
    }

    /// Sends a line, or reports a line over ``maximumLineLength`` (which is
    /// skipped: see the property).
    func deliver(_ piece: LineBuffer.Piece, on stream: Stream) {
        switch piece {
        case .line(let line):
            (stream == .output ? output : errorOutput).send(line)
        case .tooLong:
            let name = stream == .output ? "output" : "errorOutput"
            report(.lineTooLong("ChildProcess.\(name)", limit: maximumLineLength.bytes ?? 0, context: executable))
        }
    }

    /// A pipe reached its end, failed or was drained: closes it and sends
    /// what is left of its lines (a backlog the line budget held back, over
    /// the next turns, then the last line) before ``didExit`` may go.
    func ended(_ stream: Stream) {
        let lines: LineDelivery?
        switch stream {
        case .output:
            guard let pipe = outputPipe else { return }
            outputPipe = nil
            pipe.close()
            lines = outputLines
        case .error:
            guard let pipe = errorPipe else { return }
            errorPipe = nil
            pipe.close()
            lines = errorLines
        }
        if stream == .output, let outputFrames {
            unfinishedLines += 1
            outputFrames.finish { [weak self] in
                guard let self else { return }
                unfinishedLines -= 1
                finishIfDrained()
            }
        }
        guard let lines else { return finishIfDrained() }
        unfinishedLines += 1
        lines.finishOverTurns { [weak self] in
            guard let self else { return }
            unfinishedLines -= 1
            finishIfDrained()
        }
    }

    func exited(status: Int64, signal: Int32) {
        pendingTermination = Termination(status: status, signal: signal == 0 ? nil : signal)
        phase = .draining
        // The handle pruned the group at the exit: still registered means
        // another member lives on (see "Process group").
        if let pid, let loop, simulated == nil, loop.processGroups.ids.contains(pid) {
            lingeringGroups.insert(pid)
        }
        if lingeringGroups.isEmpty {
            killTimer?.close()
            killTimer = nil
        }
        // The exit callback has run: closing the handle is safe now.
        process?.close()
        process = nil
        inputPipe?.close()
        inputPipe = nil
        if outputPipe != nil || errorPipe != nil {
            armDrainTimer()
        }
        inputEndedWhileFull()
        finishIfDrained()
    }

    func armDrainTimer() {
        do {
            let timer = try TimerHandle(loop: runLoop())
            timer.start(after: Self.drainTimeout) { [weak self] in
                self?.drainNow()
            }
            drainTimer = timer
        } catch {
            report(error)
            drainNow()
        }
    }

    /// A descendant still holds a pipe open: reads what is buffered, then
    /// ends the pipes.
    func drainNow() {
        drainTimer?.close()
        drainTimer = nil
        if let pipe = outputPipe {
            _ = pipe.readAvailable { bytes in received(bytes, on: .output) }
            ended(.output)
        }
        if let pipe = errorPipe {
            _ = pipe.readAvailable { bytes in received(bytes, on: .error) }
            ended(.error)
        }
    }

    func finishIfDrained() {
        guard phase == .draining, outputPipe == nil, errorPipe == nil, unfinishedLines == 0,
              let result = pendingTermination else { return }
        drainTimer?.close()
        drainTimer = nil
        pendingTermination = nil
        termination = result
        phase = .idle
        let retained = retainedWhileRunning
        retainedWhileRunning = nil
        // Read before `didExit`: an observer may start the next run.
        let wasAskedToStop = stopRequested
        withExtendedLifetime(retained) {
            didExit.send(result)
            failIfFatal(result, askedToStop: wasAskedToStop)
        }
    }
}
