internal import CLibUV

/// A one-shot timer kept by the kernel (a Linux `timerfd`) and watched by
/// the loop as a readable file descriptor, for the runtime's own
/// housekeeping (``LoopHealthMonitor``).
///
/// Why not a libuv timer (``TimerHandle``): while a libuv timer is active,
/// every wait of the loop carries a timeout, and the kernel arms and
/// cancels a high-resolution timer on each wait that sleeps, hundreds of
/// nanoseconds of kernel time per wait. A loop that waits once per message
/// (a daemon serving one client) pays it on every message, for a timer
/// that fires ten times a second. A `timerfd` is armed once per period and
/// lets the loop wait without a timeout when nothing else is due, as a
/// loop without the housekeeping would.
///
/// It never keeps the loop alive.
@MainActor
final class KernelTimer {
    private let fd: Int32
    private var poll: PollHandle?
    private var onFire: (@MainActor () -> Void)?

    /// Makes the timer (not armed).
    ///
    /// - Throws: `timerfd_create`'s, `uv_poll_init`'s or `uv_poll_start`'s
    ///   ``LoopError``.
    init(loop: EventLoop) throws(LoopError) {
        let fd = compose_timerfd_create()
        guard fd >= 0 else { throw LoopError("timerfd_create", code: fd) }
        self.fd = fd
        poll = try PollHandle.watching(ownedDescriptor: fd, on: loop) { [unowned self] in self.fired() }
    }

    /// Calls `body` once, `nanoseconds` from now (replacing what an earlier
    /// call armed).
    ///
    /// - Throws: `timerfd_settime`'s ``LoopError``.
    func start(afterNanoseconds nanoseconds: UInt64, _ body: @escaping @MainActor () -> Void) throws(LoopError) {
        onFire = body
        let result = compose_timerfd_arm(fd, nanoseconds)
        guard result == 0 else { throw LoopError("timerfd_settime", code: result) }
    }

    /// Stops watching; the poll handle closes the file descriptor. Safe to
    /// call more than once.
    func close() {
        onFire = nil
        poll?.close()
        poll = nil
    }

    private func fired() {
        compose_timerfd_clear(fd)
        let body = onFire
        onFire = nil
        body?()
    }
}
