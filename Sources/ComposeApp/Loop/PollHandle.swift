internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A `uv_poll_t` watching a file descriptor for readability.
@MainActor
final class PollHandle: LoopHandle {
    private var callback: (@MainActor () -> Void)?
    /// The file descriptor closed with the handle (see
    /// ``watching(ownedDescriptor:on:_:)``).
    private var ownedDescriptor: Int32?

    init(loop: EventLoop, fd: Int32) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_poll_t>.size, operation: "uv_poll_init") { raw in
            uv_poll_init(loop.uv, raw.assumingMemoryBound(to: uv_poll_t.self), fd)
        }
    }

    func startReading(_ callback: @escaping @MainActor () -> Void) throws(LoopError) {
        assertOnLoopThread()
        guard !isClosing else { return }
        self.callback = callback
        try LoopError.check(uv_poll_start(raw.assumingMemoryBound(to: uv_poll_t.self), Int32(UV_READABLE.rawValue), pollHandleFiredCallback), "uv_poll_start")
    }

    /// A handle that watches `fd` and owns it: each time `fd` is readable
    /// it calls `callback`; it never keeps the loop alive; and `fd` is
    /// closed with the handle, or at once when the handle cannot be made
    /// or started.
    ///
    /// - Throws: `uv_poll_init`'s or `uv_poll_start`'s ``LoopError``.
    static func watching(ownedDescriptor fd: Int32, on loop: EventLoop, _ callback: @escaping @MainActor () -> Void) throws(LoopError) -> PollHandle {
        let poll: PollHandle
        do {
            poll = try PollHandle(loop: loop, fd: fd)
        } catch {
            Glibc.close(fd)
            throw error
        }
        poll.ownedDescriptor = fd
        do {
            try poll.startReading(callback)
        } catch {
            poll.close()
            throw error
        }
        poll.keepsLoopAlive = false
        return poll
    }

    override func releaseCallbacks() {
        callback = nil
    }

    /// Closes the owned descriptor: libuv no longer watches it.
    override func releaseAfterClose() {
        if let ownedDescriptor { Glibc.close(ownedDescriptor) }
        ownedDescriptor = nil
    }

    fileprivate func fire() {
        callback?()
    }
}

/// ``pollHandleFired`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var pollHandleFiredCallback: uv_poll_cb { { pollHandleFired($0, $1, $2) } }

@MainActor private func pollHandleFired(_ handle: UnsafeMutablePointer<uv_poll_t>?, _ status: Int32, _ events: Int32) {
    LoopHandle.dispatch(compose_uv_handle(handle), as: PollHandle.self, ()) { owner, _ in
        owner.fire()
    }
}
