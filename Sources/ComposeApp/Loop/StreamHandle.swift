internal import CLibUV

/// A readable `uv_pipe_t` or `uv_tty_t` over an existing file descriptor.
@MainActor
final class StreamHandle: LoopHandle {
    /// Bytes read, or `nil` at end of input.
    private var onRead: (@MainActor (UnsafeRawBufferPointer?) -> Void)?
    private var onError: (@MainActor (LoopError) -> Void)?
    /// The buffer libuv reads into (one at a time: reads are sequential).
    // nonisolated(unsafe): the pointer itself never changes, and the memory
    // is written only by libuv and read only in callbacks, all on the loop
    // thread (the main thread); the allocation callback only hands it out.
    nonisolated(unsafe) fileprivate let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    /// Opens `fd` as a pipe, or as a TTY when it is a terminal.
    init(loop: EventLoop, fd: Int32) throws(LoopError) {
        if uv_guess_handle(fd) == UV_TTY {
            try super.init(size: MemoryLayout<uv_tty_t>.size, operation: "uv_tty_init") { raw in
                uv_tty_init(loop.uv, raw.assumingMemoryBound(to: uv_tty_t.self), fd, 1)
            }
        } else {
            try super.init(size: MemoryLayout<uv_pipe_t>.size, operation: "uv_pipe_init") { raw in
                uv_pipe_init(loop.uv, raw.assumingMemoryBound(to: uv_pipe_t.self), 0)
            }
            let result = uv_pipe_open(raw.assumingMemoryBound(to: uv_pipe_t.self), fd)
            if result < 0 {
                close()
                throw LoopError("uv_pipe_open", code: result, context: "file descriptor \(fd)")
            }
        }
    }

    isolated deinit {
        buffer.deallocate()
    }

    func startReading(
        _ onRead: @escaping @MainActor (UnsafeRawBufferPointer?) -> Void,
        onError: @escaping @MainActor (LoopError) -> Void
    ) throws(LoopError) {
        guard !isClosing else { return }
        self.onRead = onRead
        self.onError = onError
        try LoopError.check(uv_read_start(compose_uv_stream(raw), streamHandleAllocate, streamHandleRead), "uv_read_start")
    }

    override func releaseCallbacks() {
        onRead = nil
        onError = nil
    }

    fileprivate func didRead(_ count: Int) {
        if count > 0 {
            onRead?(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        } else if count == Int(UV_EOF.rawValue) {
            onRead?(nil)
        } else if count < 0 {
            onError?(LoopError("uv_read", code: Int32(count)))
        }
    }
}

private func streamHandleAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    guard let buffer else { return }
    guard let owner = LoopHandle.unmanagedOwner(of: handle)?.takeUnretainedValue() as? StreamHandle else {
        buffer.pointee = uv_buf_init(nil, 0)
        return
    }
    let storage = owner.buffer
    buffer.pointee = uv_buf_init(storage.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(storage.count))
}

private func streamHandleRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?) {
    LoopHandle.dispatch(compose_uv_handle(stream), as: StreamHandle.self) { owner in
        owner.didRead(count)
    }
}
