internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A `uv_signal_t`.
@MainActor
final class SignalHandle: LoopHandle {
    private var callback: (@MainActor (Int32) -> Void)?

    init(loop: EventLoop) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_signal_t>.size, operation: "uv_signal_init") { raw in
            uv_signal_init(loop.uv, raw.assumingMemoryBound(to: uv_signal_t.self))
        }
    }

    func start(_ signal: Int32, _ callback: @escaping @MainActor (Int32) -> Void) throws(LoopError) {
        assertOnLoopThread()
        guard !isClosing else { return }
        self.callback = callback
        try LoopError.check(uv_signal_start(raw.assumingMemoryBound(to: uv_signal_t.self), signalHandleFiredCallback, signal), "uv_signal_start", context: "signal \(signal)")
        // A blocked signal stays pending and never reaches libuv's handler.
        // Children inherit their parent's signal mask, and a parent that
        // spawns from a dispatch worker thread (Foundation's Process in Swift
        // concurrency) blocks SIGINT, SIGTERM, SIGHUP and more: unblock the
        // signal on the loop thread. After uv_signal_start, so that one
        // already pending reaches the handler, not the default action.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    func stop() {
        assertOnLoopThread()
        guard !isClosing else { return }
        uv_signal_stop(raw.assumingMemoryBound(to: uv_signal_t.self))
    }

    override func releaseCallbacks() {
        callback = nil
    }

    fileprivate func fire(_ signal: Int32) {
        callback?(signal)
    }
}

/// ``signalHandleFired`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var signalHandleFiredCallback: uv_signal_cb { { signalHandleFired($0, $1) } }

@MainActor private func signalHandleFired(_ handle: UnsafeMutablePointer<uv_signal_t>?, _ signal: Int32) {
    LoopHandle.dispatch(compose_uv_handle(handle), as: SignalHandle.self, signal) { owner, signal in
        owner.fire(signal)
    }
}
