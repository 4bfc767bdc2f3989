import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    // MARK: Input (see "Standard input")

    /// Queues the UTF-8 bytes of `text` for the child's standard input.
    /// Needs `acceptsInput: true` and a running child (otherwise logged and
    /// ignored, ``WriteResult/closed``); a failed write goes to ``errors``.
    /// A child that does not read makes the queue grow: at
    /// ``inputHighWaterMark`` the write says ``WriteResult/full``; wait for
    /// ``didBecomeWritable`` (or relay into the child, which does).
    @discardableResult
    public func write(_ text: String) -> WriteResult {
        var text = text
        return text.withUTF8Inline { write(UnsafeRawBufferPointer($0)) }
    }

    /// Queues `bytes` for the child's standard input.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> WriteResult {
        bytes.withUnsafeBytesInline { write($0) }
    }

    /// Queues the bytes in `buffer` (copied) for the child's standard input.
    @discardableResult
    public func write(_ buffer: UnsafeRawBufferPointer) -> WriteResult {
        if let simulated, phase == .running, !simulated.isInputClosedByApp {
            simulated.write(buffer)
            return .written
        }
        guard let inputPipe, phase == .running else {
            let reason = !acceptsInput ? "it was made without acceptsInput" : phase != .running ? "it is not running" : "its input is closed"
            logger.warning("ChildProcess(\(executable)).write: ignored, \(reason).")
            return .closed
        }
        guard buffer.count > 0 else { return isInputFull ? .full : .queued }
        queuedInputBytes += buffer.count
        inputPipe.write(copying: buffer)
        guard self.inputPipe != nil else { return .closed }
        if queuedInputBytes >= inputHighWaterMark {
            isInputFull = true
            return .full
        }
        return .queued
    }

    /// A write to the child's input finished (or failed).
    func inputWritten(_ count: Int, _ error: LoopError?) {
        queuedInputBytes = max(0, queuedInputBytes - count)
        if let error {
            if error.kind != .cancelled { inputFailed(error) }
            return
        }
        if isInputFull, queuedInputBytes <= inputLowWaterMark {
            isInputFull = false
            didBecomeWritable.send()
        }
    }

    /// Ends the child's standard input once every queued write is done:
    /// the child reads end of input. Idempotent.
    public func closeInput() {
        simulated?.closeInput()
        inputPipe?.closeAfterWrites()
        inputPipe = nil
    }

    /// A write to the child's input failed. `EPIPE` means the child closed
    /// its input or exited: an expected event, not a failure of the app, so
    /// it is reported on ``errors`` once and the input is closed (later
    /// writes are ignored).
    func inputFailed(_ error: LoopError) {
        guard let pipe = inputPipe else { return }
        inputPipe = nil
        queuedInputBytes = 0
        pipe.close()
        if error.isPeerGone {
            logger.debug("ChildProcess(\(executable)) closed its input: \(error)")
            errors.send(error)
        } else {
            report(error)
        }
        inputEndedWhileFull()
    }

    /// The input closed for good (it failed, or the child exited): a full
    /// queue holds nothing back any more, so what waits for it (a relay's
    /// source, frames paced by the child) goes on; its writes say
    /// ``WriteResult/closed``.
    func inputEndedWhileFull() {
        guard isInputFull else { return }
        isInputFull = false
        didBecomeWritable.send()
    }
}
