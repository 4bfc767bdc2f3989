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
///   the object and frees the memory.
@MainActor
class LoopHandle {
    /// The C handle (`uv_timer_t`, `uv_signal_t`, ...), typed as raw memory.
    let raw: UnsafeMutableRawPointer
    /// Whether ``close()`` was called (the handle may still be closing).
    private(set) var isClosing = false
    /// Called once, from the close callback, after libuv let go of the handle.
    var onClosed: (@MainActor () -> Void)?

    /// Allocates the handle and runs `initialize` on it (e.g. `uv_timer_init`).
    init(size: Int, operation: String, _ initialize: (UnsafeMutableRawPointer) -> Int32) throws(LoopError) {
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
            guard !isClosing else { return }
            if newValue { uv_ref(handle) } else { uv_unref(handle) }
        }
    }

    /// Subclasses drop their user closures here.
    func releaseCallbacks() {}

    /// Stops the handle and closes it. Safe to call more than once and from
    /// inside the handle's own callback.
    func close() {
        guard !isClosing else { return }
        isClosing = true
        releaseCallbacks()
        uv_close(handle, loopHandleDidClose)
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

    /// Enters the main actor from a libuv callback (libuv calls back on the
    /// loop thread, which is the main thread) with the handle's owner, if it
    /// is a `T` and not closing.
    nonisolated static func dispatch<T: LoopHandle>(_ handle: UnsafeMutablePointer<uv_handle_t>?, as type: T.Type, _ body: @MainActor (T) -> Void) {
        guard let owner = unmanagedOwner(of: handle) else { return }
        MainActor.assumeIsolated {
            guard let typed = owner.takeUnretainedValue() as? T, !typed.isClosing else { return }
            body(typed)
        }
    }

    fileprivate func didClose() {
        let closed = onClosed
        onClosed = nil
        closed?()
    }
}

/// The close callback: the only place a handle's memory is freed and its
/// owner released.
private func loopHandleDidClose(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle, let owner = LoopHandle.unmanagedOwner(of: handle) else { return }
    handle.pointee.data = nil
    MainActor.assumeIsolated {
        owner.takeRetainedValue().didClose()
    }
    UnsafeMutableRawPointer(handle).deallocate()
}
