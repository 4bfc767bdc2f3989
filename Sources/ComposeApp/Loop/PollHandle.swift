internal import CLibUV

/// A `uv_poll_t` watching a file descriptor for readability.
@MainActor
final class PollHandle: LoopHandle {
    private var callback: (@MainActor () -> Void)?

    init(loop: EventLoop, fd: Int32) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_poll_t>.size, operation: "uv_poll_init") { raw in
            uv_poll_init(loop.uv, raw.assumingMemoryBound(to: uv_poll_t.self), fd)
        }
    }

    func startReading(_ callback: @escaping @MainActor () -> Void) throws(LoopError) {
        assertOnLoopThread()
        guard !isClosing else { return }
        self.callback = callback
        try LoopError.check(uv_poll_start(raw.assumingMemoryBound(to: uv_poll_t.self), Int32(UV_READABLE.rawValue), pollHandleFired), "uv_poll_start")
    }

    override func releaseCallbacks() {
        callback = nil
    }

    fileprivate func fire() {
        callback?()
    }
}

private func pollHandleFired(_ handle: UnsafeMutablePointer<uv_poll_t>?, _ status: Int32, _ events: Int32) {
    LoopHandle.dispatch(compose_uv_handle(handle), as: PollHandle.self, ()) { owner, _ in
        owner.fire()
    }
}
