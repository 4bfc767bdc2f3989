import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    // MARK: Simulated runs (a test context; see SimulatedProcess)

    /// Starts the scripted run of a test context instead of spawning.
    func startSimulated(_ processes: SimulatedProcesses) throws(LoopError) {
        let run = try processes.spawn(
            executable: executable,
            arguments: arguments,
            environment: environment.resolved(),
            workingDirectory: workingDirectory,
            acceptsInput: acceptsInput
        )
        run.onOutput = { [weak self] bytes, isError in
            self?.received(bytes, on: isError ? .error : .output)
        }
        run.onInputFailed = { [weak self] error in
            // Only `EPIPE`: the child exited (see inputFailed(_:)).
            guard let self else { return }
            logger.debug("ChildProcess(\(executable)) closed its input: \(error)")
            errors.send(error)
        }
        run.onExit = { [weak self] termination in
            self?.simulatedExited(termination)
        }
        simulated = run
        // No loop turns, no line budget: lines go out as the script writes.
        startLines(on: nil)
        pid = run.pid
        phase = .running
        retainedWhileRunning = self
        run.begin()
    }

    /// `SIGTERM` now, `SIGKILL` after the grace period, on the context's
    /// clock.
    func terminateSimulated(_ run: SimulatedProcess) {
        guard phase == .running, !run.isTerminating else { return }
        kill(.terminate)
        run.kill(after: terminationGracePeriod) { [weak self] in
            self?.gracePeriodEnded()
        }
    }

    /// The scripted run ended: its output was delivered before, so the
    /// pipes' last lines are flushed and ``didExit`` is sent.
    func simulatedExited(_ termination: Termination) {
        simulated = nil
        outputLines?.finish()
        errorLines?.finish()
        if let outputFrames {
            // didExit waits for the frames held back (see exited).
            unfinishedLines += 1
            outputFrames.finish { [weak self] in
                guard let self else { return }
                unfinishedLines -= 1
                finishIfDrained()
            }
        }
        exited(status: termination.status, signal: termination.signal ?? 0)
    }
}
