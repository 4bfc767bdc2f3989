internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A readable and writable stream: a `uv_pipe_t` created for a child
/// process's standard input, output or error (`uv_spawn` opens it, a socket
/// pair on Linux), or an existing file descriptor such as standard input
/// opened as a pipe or a `uv_tty_t`. Reads go into one buffer shared by
/// every stream (the loop reads one at a time).
///
/// Requests (`uv_write_t`, `uv_shutdown_t`) retain this handle in
/// `req.data` and are freed in their completion callback, which libuv
/// always calls (with `UV_ECANCELED` when the handle closes first).
@MainActor
final class StreamHandle: LoopHandle {
    /// Bytes read, or `nil` at end of input.
    private var onRead: (@MainActor (UnsafeRawBufferPointer?) -> Void)?
    /// A read or write failed.
    private var onError: (@MainActor (LoopError) -> Void)?

    init(loop: EventLoop) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_pipe_t>.size, operation: "uv_pipe_init") { raw in
            uv_pipe_init(loop.uv, raw.assumingMemoryBound(to: uv_pipe_t.self), 0)
        }
    }

    /// Opens an existing file descriptor (standard input): as a TTY when it
    /// is a terminal, as a pipe otherwise.
    init(loop: EventLoop, fileDescriptor fd: Int32) throws(LoopError) {
        if uv_guess_handle(fd) == UV_TTY {
            try super.init(loop: loop, size: MemoryLayout<uv_tty_t>.size, operation: "uv_tty_init") { raw in
                uv_tty_init(loop.uv, raw.assumingMemoryBound(to: uv_tty_t.self), fd, 1)
            }
        } else {
            try super.init(loop: loop, size: MemoryLayout<uv_pipe_t>.size, operation: "uv_pipe_init") { raw in
                uv_pipe_init(loop.uv, raw.assumingMemoryBound(to: uv_pipe_t.self), 0)
            }
            let result = uv_pipe_open(raw.assumingMemoryBound(to: uv_pipe_t.self), fd)
            if result < 0 {
                close()
                throw LoopError("uv_pipe_open", code: result, context: "file descriptor \(fd)")
            }
        }
    }

    var stream: UnsafeMutablePointer<uv_stream_t> { compose_uv_stream(raw) }

    /// Called with every chunk read, then with `nil` at end of input.
    func startReading(
        _ onRead: @escaping @MainActor (UnsafeRawBufferPointer?) -> Void,
        onError: @escaping @MainActor (LoopError) -> Void
    ) throws(LoopError) {
        guard !isClosing else { return }
        self.onRead = onRead
        self.onError = onError
        try LoopError.check(uv_read_start(stream, streamHandleAllocate, streamHandleRead), "uv_read_start")
    }

    /// Sets the callback that reports failed writes (for a pipe that is
    /// written, not read).
    func reportErrors(_ onError: @escaping @MainActor (LoopError) -> Void) {
        guard !isClosing else { return }
        self.onError = onError
    }

    /// Reads, without blocking, whatever is buffered in the pipe right now,
    /// bypassing libuv (which is not reading at this moment: this runs on
    /// the loop thread between callbacks). Returns whether end of input was
    /// seen.
    func readAvailable(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard !isClosing else { return true }
        var fd: uv_os_fd_t = -1
        let buffer = loop.pipeReadBuffer
        guard uv_fileno(handle, &fd) == 0, let base = buffer.baseAddress else { return true }
        while true {
            let count = Glibc.read(fd, base, buffer.count)
            if count > 0 {
                body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            } else if count == 0 {
                return true
            } else if errno == EINTR {
                continue
            } else {
                return errno != EAGAIN && errno != EWOULDBLOCK
            }
        }
    }

    /// Queues a copy of `bytes`; failures go to the error callback.
    func write(copying bytes: UnsafeRawBufferPointer) {
        guard !isClosing, bytes.count > 0 else { return }
        let header = MemoryLayout<uv_write_t>.stride
        let memory = UnsafeMutableRawPointer.allocate(byteCount: header + bytes.count, alignment: 16)
        let request = memory.assumingMemoryBound(to: uv_write_t.self)
        let payload = memory + header
        if let base = bytes.baseAddress { payload.copyMemory(from: base, byteCount: bytes.count) }
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        var buffer = uv_buf_init(payload.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        let result = uv_write(request, stream, &buffer, 1, streamHandleWritten)
        if result < 0 {
            Unmanaged<StreamHandle>.fromOpaque(request.pointee.data).release()
            memory.deallocate()
            onError?(LoopError("uv_write", code: result))
        }
    }

    /// Ends the writing side once every queued write is done (the reader
    /// sees end of input), then closes the handle.
    func closeAfterWrites() {
        guard !isClosing else { return }
        let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let result = uv_shutdown(request, stream, streamHandleShutDown)
        if result < 0 {
            Unmanaged<StreamHandle>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            close()
        }
    }

    override func releaseCallbacks() {
        onRead = nil
        onError = nil
    }

    fileprivate func didRead(_ count: Int) {
        if count > 0 {
            onRead?(UnsafeRawBufferPointer(rebasing: loop.pipeReadBuffer[0..<count]))
        } else if count == Int(UV_EOF.rawValue) {
            onRead?(nil)
        } else if count < 0 {
            onError?(LoopError("uv_read", code: Int32(count)))
        }
    }

    fileprivate func didWrite(_ status: Int32) {
        guard status < 0, status != UV_ECANCELED.rawValue, !isClosing else { return }
        onError?(LoopError("uv_write", code: status))
    }
}

/// One read buffer for every pipe of a loop (``EventLoop/pipeReadBuffer``):
/// libuv reads one stream at a time on the loop thread and each chunk is
/// delivered before the next read.
private func streamHandleAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    guard let handle else { return }
    let memory = EventLoop.pipeReadBuffer(of: handle.pointee.loop)
    buffer?.pointee = uv_buf_init(memory.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(memory.count))
}

private func streamHandleRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?) {
    guard count != 0 else { return }
    LoopHandle.dispatch(compose_uv_handle(stream), as: StreamHandle.self, count) { owner, count in
        owner.didRead(count)
    }
}

private func streamHandleWritten(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    guard let request, let data = request.pointee.data else { return }
    let owner = Unmanaged<StreamHandle>.fromOpaque(data)
    UnsafeMutableRawPointer(request).deallocate()
    onLoopThread((owner, status)) { written in
        written.0.takeRetainedValue().didWrite(written.1)
    }
}

private func streamHandleShutDown(_ request: UnsafeMutablePointer<uv_shutdown_t>?, _ status: Int32) {
    guard let request, let data = request.pointee.data else { return }
    let owner = Unmanaged<StreamHandle>.fromOpaque(data)
    request.deallocate()
    onLoopThread(owner) { owner in
        owner.takeRetainedValue().close()
    }
}
