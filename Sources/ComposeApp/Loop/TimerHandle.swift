internal import CLibUV

/// A `uv_timer_t`.
@MainActor
final class TimerHandle: LoopHandle {
    private var callback: (@MainActor () -> Void)?

    init(loop: EventLoop) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_timer_t>.size, operation: "uv_timer_init") { raw in
            uv_timer_init(loop.uv, raw.assumingMemoryBound(to: uv_timer_t.self))
        }
    }

    private var timer: UnsafeMutablePointer<uv_timer_t> {
        raw.assumingMemoryBound(to: uv_timer_t.self)
    }

    /// Calls `callback` after `timeout`, then every `repeat` if it is not
    /// zero. Durations are rounded up to libuv's millisecond resolution.
    func start(after timeout: Duration, repeat interval: Duration = .zero, _ callback: @escaping @MainActor () -> Void) {
        guard !isClosing else { return }
        self.callback = callback
        restart(afterMilliseconds: Self.milliseconds(timeout), repeatMilliseconds: Self.milliseconds(interval))
    }

    /// Starts the countdown again with the callback given last, the times
    /// already in libuv's milliseconds: what a timer restarted on every
    /// line of input (an idle timeout) does, without storing a new closure
    /// or converting its durations each time.
    func restart(afterMilliseconds timeout: UInt64, repeatMilliseconds interval: UInt64) {
        assertOnLoopThread()
        guard !isClosing, callback != nil else { return }
        // libuv counts from the loop's cached "now", which is stale when the
        // timer starts before the loop runs or after a long callback; without
        // this the first firing comes early by that much.
        uv_update_time(handle.pointee.loop)
        uv_timer_start(timer, timerHandleFiredCallback, timeout, interval)
    }

    func stop() {
        assertOnLoopThread()
        guard !isClosing else { return }
        uv_timer_stop(timer)
    }

    override func releaseCallbacks() {
        callback = nil
    }

    fileprivate func fire() {
        callback?()
    }

    static func milliseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let millis = UInt64(seconds) * 1_000 + UInt64((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        return millis
    }
}

/// ``timerHandleFired`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var timerHandleFiredCallback: uv_timer_cb { { timerHandleFired($0) } }

@MainActor private func timerHandleFired(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    LoopHandle.dispatch(compose_uv_handle(timer), as: TimerHandle.self, ()) { owner, _ in
        owner.fire()
    }
}
