import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    // MARK: Stopping (see "Process group" and "Termination policy")

    /// Sends `signal` to the running child's process group (`SIGTERM` by
    /// default), or, once the child exited, to what it left in its group.
    /// Does nothing (and logs) when neither runs; a failure goes to
    /// ``errors``.
    public func kill(_ signal: ProcessSignal.Name = .terminate) {
        if let simulated, phase == .running {
            simulated.kill(signal)
            return
        }
        if phase != .running, signalLingeringGroups(signal.rawValue) { return }
        guard phase == .running, let process else {
            logger.warning("ChildProcess(\(executable)).kill(\(signal)) while it is not running: ignored.")
            return
        }
        do {
            try process.kill(signal.rawValue)
        } catch {
            report(error)
        }
    }

    /// Terminates the running child politely: `SIGTERM` to its group now,
    /// `SIGKILL` if it still runs after ``terminationGracePeriod``. After
    /// the child exited, does the same to what it left in its group.
    /// Idempotent while a termination is under way; does nothing when
    /// nothing runs.
    public func terminate() {
        stopRequested = true
        if let simulated {
            terminateSimulated(simulated)
            return
        }
        guard killTimer == nil else { return }
        if phase == .running {
            kill(.terminate)
        } else if !signalLingeringGroups(SIGTERM) {
            return
        }
        do {
            let timer = try TimerHandle(loop: runLoop())
            timer.keepsLoopAlive = false
            timer.start(after: terminationGracePeriod) { [weak self] in
                self?.gracePeriodEnded()
            }
            killTimer = timer
        } catch {
            report(error)
        }
    }

    /// Ends this process object for good: closes the input, terminates a
    /// running child (see ``terminate()``) and closes every handle once it
    /// has exited; ``start()`` does nothing afterwards. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        closeInput()
        terminate()
    }

    func gracePeriodEnded() {
        killTimer?.close()
        killTimer = nil
        guard phase == .running else {
            if signalLingeringGroups(SIGKILL) {
                logger.warning("ChildProcess(\(executable)): what pid \(pid ?? 0) left in its group still runs \(terminationGracePeriod) after SIGTERM: sending SIGKILL.")
            }
            return
        }
        logger.warning("ChildProcess(\(executable)) pid \(pid ?? 0) still runs \(terminationGracePeriod) after SIGTERM: sending SIGKILL.")
        kill(.kill)
    }

    /// Sends `signal` to the groups earlier runs left behind, forgetting
    /// those that are empty. Returns whether one was signalled.
    func signalLingeringGroups(_ signal: Int32) -> Bool {
        guard let loop, !lingeringGroups.isEmpty else { return false }
        var signalled = false
        for group in lingeringGroups {
            if loop.processGroups.signal(group, signal) == 0 {
                signalled = true
            } else {
                lingeringGroups.remove(group)
            }
        }
        return signalled
    }
}
