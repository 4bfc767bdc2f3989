internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// The calls child process pipes and standard input use: one error callback
/// for reads and writes, bytes as a buffer valid during the call, and a
/// write that reports its failure instead of throwing. They set the
/// stream's callbacks and use its one read, write and shutdown path.
extension StreamHandle {
    /// Reads until the handle closes: `onRead` gets every chunk, then `nil`
    /// at end of input; `onError` gets a failed read (and a failed write,
    /// see ``reportErrors(_:)``).
    func startReading(
        _ onRead: @escaping @MainActor (UnsafeRawBufferPointer?) -> Void,
        onError: @escaping @MainActor (LoopError) -> Void
    ) throws(LoopError) {
        guard !isClosing else { return }
        self.onRead = { chunk in onRead(chunk.bytes) }
        onEnd = { error in
            if let error { onError(error) } else { onRead(nil) }
        }
        reportErrors(onError)
        try startReading()
    }

    /// Sets the callback that reports failed writes (for a pipe that is
    /// written, not read). A write cancelled by closing is not a failure.
    func reportErrors(_ onError: @escaping @MainActor (LoopError) -> Void) {
        guard !isClosing else { return }
        onWriteCompleted = { _, error in
            if let error, error.kind != .cancelled { onError(error) }
        }
    }

    /// Queues a copy of `bytes`; a failure goes to the error callback
    /// (``reportErrors(_:)``). Does nothing once the handle is closing.
    func write(copying bytes: UnsafeRawBufferPointer) {
        guard !isClosing, bytes.count > 0 else { return }
        do {
            try queueWrite(copying: bytes)
        } catch {
            // Reported the way a failed completion is.
            onWriteCompleted?(0, error)
        }
    }

    /// Ends the writing side once every queued write is done (the reader
    /// sees end of input), then closes the handle.
    func closeAfterWrites() {
        guard !isClosing else { return }
        // The handle keeps itself alive until it is closed; the closure is
        // dropped then.
        onShutdown = { [unowned self] _ in self.close() }
        do {
            try shutdown()
        } catch {
            close()
        }
    }

    /// Reads, without blocking, whatever is buffered in the pipe right now,
    /// bypassing libuv (which is not reading at this moment: this runs on
    /// the loop thread between callbacks). Returns whether end of input was
    /// seen.
    func readAvailable(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        assertOnLoopThread()
        guard !isClosing else { return true }
        var fd: uv_os_fd_t = -1
        let buffer = EventLoop.readBuffer(of: loop.uv)
        guard uv_fileno(handle, &fd) == 0, let base = buffer.memory.baseAddress else { return true }
        return withExtendedLifetime(buffer) {
            while true {
                let count = Glibc.read(fd, base, buffer.memory.count)
                if count > 0 {
                    body(UnsafeRawBufferPointer(start: base, count: count))
                } else if count == 0 {
                    return true
                } else if errno == EINTR {
                    continue
                } else {
                    return errno != EAGAIN && errno != EWOULDBLOCK
                }
            }
        }
    }
}
