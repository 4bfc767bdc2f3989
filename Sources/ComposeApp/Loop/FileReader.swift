internal import CLibUV

/// Reads a regular file descriptor chunk by chunk with `uv_fs_read` (libuv
/// cannot poll regular files). One request at a time; the request retains
/// this reader until its callback, which libuv always calls. A line budget
/// (see ``LineDelivery``) holds the next read until the next loop turn.
@MainActor
final class FileReader: TurnBudgeted {
    private let fd: Int32
    let loop: EventLoop
    /// Lines read and not delivered yet: delivered before the next read.
    weak var backlog: LineDelivery?
    /// Whether the next read waits for the next turn.
    private var isHeld = false
    /// Whether reading waits for ``resume()`` (frames held back).
    private var isPaused = false
    private var onRead: (@MainActor (UnsafeRawBufferPointer?) -> Void)?
    private var onError: (@MainActor (LoopError) -> Void)?
    fileprivate let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var request: UnsafeMutablePointer<uv_fs_t>?
    private var isClosed = false

    init(fd: Int32, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
    }

    isolated deinit {
        buffer.deallocate()
    }

    func startReading(
        _ onRead: @escaping @MainActor (UnsafeRawBufferPointer?) -> Void,
        onError: @escaping @MainActor (LoopError) -> Void
    ) {
        assert(loop.isOnLoopThread, "FileReader.startReading on a thread other than its loop's")
        self.onRead = onRead
        self.onError = onError
        readNext()
    }

    func close() {
        assert(loop.isOnLoopThread, "FileReader.close() on a thread other than its loop's")
        isClosed = true
        onRead = nil
        onError = nil
        if let request { uv_cancel(UnsafeMutableRawPointer(request).assumingMemoryBound(to: uv_req_t.self)) }
    }

    /// Reads nothing more (a read under way still delivers) until
    /// ``resume()``.
    func pause() {
        isPaused = true
    }

    /// Reads again after ``pause()``.
    func resume() {
        guard isPaused else { return }
        isPaused = false
        readNext()
    }

    /// Reads the next chunk at the start of the next turn, after the
    /// backlog.
    func holdUntilNextTurn() {
        guard !isHeld, !isClosed else { return }
        isHeld = true
        loop.resumeNextTurn(self, delivering: backlog?.hasBacklog ?? false)
    }

    func resumeAfterBudget() {
        isHeld = false
        guard !isClosed else { return }
        if let backlog, backlog.hasBacklog {
            backlog.deliverBacklog()
            guard !isHeld, !isClosed else { return }
            if backlog.hasBacklog {
                holdUntilNextTurn()
                return
            }
        }
        readNext()
    }

    private func readNext() {
        guard !isClosed, !isHeld, !isPaused, request == nil else { return }
        let request = UnsafeMutablePointer<uv_fs_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        var chunk = uv_buf_init(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(buffer.count))
        self.request = request
        let result = uv_fs_read(loop.uv, request, uv_file(fd), &chunk, 1, -1, fileReaderDidReadCallback)
        if result < 0 {
            self.request = nil
            Unmanaged<FileReader>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            onError?(LoopError("uv_fs_read", code: result))
        }
    }

    fileprivate func didRead(_ result: Int) {
        request = nil
        guard !isClosed else { return }
        if result > 0 {
            onRead?(UnsafeRawBufferPointer(rebasing: buffer[0..<result]))
            readNext()
        } else if result == 0 {
            onRead?(nil)
        } else {
            onError?(LoopError("uv_fs_read", code: Int32(result)))
        }
    }
}

/// ``fileReaderDidRead`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var fileReaderDidReadCallback: uv_fs_cb { { fileReaderDidRead($0) } }

@MainActor private func fileReaderDidRead(_ request: UnsafeMutablePointer<uv_fs_t>?) {
    guard let request, let data = request.pointee.data else { return }
    let result = request.pointee.result
    uv_fs_req_cleanup(request)
    let reader = Unmanaged<FileReader>.fromOpaque(data)
    request.deallocate()
    reader.takeRetainedValue().didRead(result)
}
