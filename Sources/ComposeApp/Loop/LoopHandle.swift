internal import CLibUV

/// Owns one libuv handle, following STYLE.md ("libuv handles"):
///
/// - the C handle is heap-allocated (libuv handles must not move) and
///   initialised by the subclass; if that fails the memory is freed and the
///   error thrown;
/// - once initialised, `handle->data` holds this object retained, so libuv
///   keeps it alive until the close callback;
/// - callbacks are non-capturing C functions that look the object up
///   unretained and ignore events once it is closing;
/// - ``close()`` is idempotent, drops user closures (breaking cycles) and
///   calls `uv_close`; the close callback is the only place that releases
///   the object and frees the memory;
/// - every call happens on the loop's thread, which ``init(loop:size:operation:_:)``,
///   ``close()``, the subclasses' calls and the C callbacks assert in debug
///   builds (``assertOnLoopThread()``).
@MainActor
class LoopHandle {
    /// The C handle (`uv_timer_t`, `uv_signal_t`, ...), typed as raw memory.
    let raw: UnsafeMutableRawPointer
    /// Whether ``close()`` was called (the handle may still be closing).
    private(set) var isClosing = false
    /// Called once, from the close callback, after libuv let go of the handle.
    var onClosed: (@MainActor () -> Void)?

    /// The loop the handle belongs to; kept alive while the handle is.
    let loop: EventLoop
    /// The loop's ``EventLoop/counters`` and ``EventLoop/turnState``,
    /// copied here (both pointers are never reassigned): the read and
    /// write paths reach them in one load instead of two, without touching
    /// the loop object.
    let counters: UnsafeMutablePointer<LoopCounters>
    let turnState: UnsafeMutablePointer<TurnState>

    /// Allocates the handle and runs `initialize` on it (e.g. `uv_timer_init`
    /// on `loop`).
    init(loop: EventLoop, size: Int, operation: String, _ initialize: (UnsafeMutableRawPointer) -> Int32) throws(LoopError) {
        assert(loop.isOnLoopThread, "a libuv handle made on a thread other than its loop's")
        self.loop = loop
        counters = loop.counters
        turnState = loop.turnState
        // 16 bytes suit every libuv handle type (`uv_any_handle` is their union).
        assert(MemoryLayout<uv_any_handle>.alignment <= 16 && size <= MemoryLayout<uv_any_handle>.size, "a libuv handle that needs more than 16-byte alignment, or is not one of libuv's handle types")
        raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        let result = initialize(raw)
        guard result == 0 else {
            raw.deallocate()
            throw LoopError(operation, code: result)
        }
        compose_uv_handle(raw).pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    var handle: UnsafeMutablePointer<uv_handle_t> {
        compose_uv_handle(raw)
    }

    /// Whether this handle keeps the loop running (libuv's ref/unref).
    var keepsLoopAlive: Bool {
        get { !isClosing && uv_has_ref(handle) != 0 }
        set {
            assertOnLoopThread()
            guard !isClosing else { return }
            if newValue { uv_ref(handle) } else { uv_unref(handle) }
        }
    }

    /// Subclasses drop their user closures here.
    func releaseCallbacks() {}

    /// Subclasses drop here, in the close callback, what a callback
    /// running when ``close()`` was called may still use.
    func releaseAfterClose() {}

    /// Stops the handle and closes it. Safe to call more than once and from
    /// inside the handle's own callback.
    func close() {
        assertOnLoopThread()
        guard !isClosing else { return }
        isClosing = true
        releaseCallbacks()
        uv_close(handle, loopHandleDidCloseCallback)
    }

    /// ``close()``, with `start` making libuv's close call (given the
    /// handle and the close callback): a close of another kind, such as
    /// `uv_tcp_close_reset`. `start` must close the handle with that
    /// callback, as `uv_close` does.
    final func close(starting start: (UnsafeMutablePointer<uv_handle_t>, uv_close_cb) -> Void) {
        assertOnLoopThread()
        guard !isClosing else { return }
        isClosing = true
        releaseCallbacks()
        start(handle, loopHandleDidCloseCallback)
    }

    /// Asserts, in debug builds only, that the caller runs on the loop's
    /// thread (``EventLoop/isOnLoopThread``): libuv is not thread-safe, and
    /// a handle touched from another thread (a loop driven from a detached
    /// task, say) would corrupt it silently. Free in release builds.
    final func assertOnLoopThread(_ function: StaticString = #function) {
        assert(loop.isOnLoopThread, "\(Self.self).\(function) called on a thread other than its loop's")
    }

    /// The object owning the handle `handle`, if it is one of ours.
    static func owner(of handle: UnsafeMutablePointer<uv_handle_t>?) -> LoopHandle? {
        unmanagedOwner(of: handle)?.takeUnretainedValue()
    }

    /// The owner of `handle`, unretained, readable from a C callback before
    /// it enters the main actor.
    nonisolated static func unmanagedOwner(of handle: UnsafeMutablePointer<uv_handle_t>?) -> Unmanaged<LoopHandle>? {
        guard let data = handle?.pointee.data else { return nil }
        return Unmanaged<LoopHandle>.fromOpaque(data)
    }

    /// Calls `body` with the handle's owner and `argument` from a libuv
    /// callback, unless the owner is closing.
    ///
    /// Every C callback of this module is registered on handles of one
    /// owner type only (`streamHandleRead` on ``StreamHandle``s, ...), so
    /// the owner is a `T`; `unsafeDowncast` still checks that in debug
    /// builds, as it checks that the callback runs on the loop's thread.
    ///
    /// Each call counts as one of the loop's events
    /// (``LoopCounters/events``), unless `counted` is `false` (the turn
    /// handles, which run every turn whatever happens).
    ///
    /// Main-actor isolated like the callbacks that call it: each is a
    /// `@MainActor` function, registered with libuv as a closure literal
    /// formed in main-actor code, so the C function pointer carries that
    /// isolation. That holds because libuv calls back only from inside
    /// `uv_run`, and every `uv_run` of this module is made by main-actor
    /// code (``EventLoop/run()``, ``EventLoop/tearDown()``, `LoopDriver`);
    /// CLibUV is imported `internal`, so no other module runs this loop.
    /// Debug builds assert the thread. (No `MainActor.assumeIsolated`: its
    /// runtime check costs about as much as the rest of a read callback;
    /// and no cast of a closure's isolation, which is a bit-cast between
    /// function types.)
    @inline(__always)
    static func dispatch<T: LoopHandle, Argument>(
        _ handle: UnsafeMutablePointer<uv_handle_t>?,
        as type: T.Type,
        counted: Bool = true,
        _ argument: Argument,
        _ body: (T, Argument) -> Void
    ) {
        guard let owner = unmanagedOwner(of: handle) else { return }
        assert(handle.map { EventLoop.owner(of: $0.pointee.loop).isOnLoopThread } ?? true, "a libuv callback on a thread other than its loop's")
        let typed = unsafeDowncast(owner.takeUnretainedValue(), to: T.self)
        guard !typed.isClosing else { return }
        if counted { typed.loop.counters.pointee.events &+= 1 }
        body(typed, argument)
    }

    fileprivate func didClose() {
        releaseAfterClose()
        let closed = onClosed
        onClosed = nil
        closed?()
    }
}

/// ``loopHandleDidClose`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var loopHandleDidCloseCallback: uv_close_cb { { loopHandleDidClose($0) } }

/// The close callback: the only place a handle's memory is freed and its
/// owner released.
@MainActor private func loopHandleDidClose(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle, let owner = LoopHandle.unmanagedOwner(of: handle) else { return }
    handle.pointee.data = nil
    owner.takeRetainedValue().didClose()
    UnsafeMutableRawPointer(handle).deallocate()
}
