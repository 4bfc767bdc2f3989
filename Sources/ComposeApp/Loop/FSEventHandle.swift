internal import CLibUV

/// A `uv_fs_event_t` (inotify on Linux) watching one file or directory.
@MainActor
final class FSEventHandle: LoopHandle {
    /// What libuv reported about an entry.
    struct Change {
        /// The entry's name inside a watched directory, or the watched
        /// file's (or directory's own) base name.
        let name: String?
        /// `UV_RENAME` was set.
        let renamed: Bool
        /// `UV_CHANGE` was set.
        let changed: Bool
    }

    private var callback: (@MainActor (Change) -> Void)?
    private var onError: (@MainActor (LoopError) -> Void)?

    init(loop: EventLoop) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_fs_event_t>.size, operation: "uv_fs_event_init") { raw in
            uv_fs_event_init(loop.uv, raw.assumingMemoryBound(to: uv_fs_event_t.self))
        }
    }

    /// Starts watching `path`. Throws `ENOENT` (naming the path) when it
    /// does not exist.
    func start(
        path: String,
        _ callback: @escaping @MainActor (Change) -> Void,
        onError: @escaping @MainActor (LoopError) -> Void
    ) throws(LoopError) {
        assertOnLoopThread()
        guard !isClosing else { return }
        self.callback = callback
        self.onError = onError
        let result = uv_fs_event_start(raw.assumingMemoryBound(to: uv_fs_event_t.self), fsEventHandleFiredCallback, path, 0)
        try LoopError.check(result, "uv_fs_event_start", context: path)
    }

    override func releaseCallbacks() {
        callback = nil
        onError = nil
    }

    fileprivate func fire(_ change: Change, status: Int32) {
        if status < 0 {
            onError?(LoopError("uv_fs_event", code: status))
        } else {
            callback?(change)
        }
    }
}

/// ``fsEventHandleFired`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var fsEventHandleFiredCallback: uv_fs_event_cb { { fsEventHandleFired($0, $1, $2, $3) } }

@MainActor private func fsEventHandleFired(_ handle: UnsafeMutablePointer<uv_fs_event_t>?, _ filename: UnsafePointer<CChar>?, _ events: Int32, _ status: Int32) {
    // `filename` is valid during this call only: copy it first.
    let change = FSEventHandle.Change(
        name: filename.map { String(cString: $0) },
        renamed: events & Int32(UV_RENAME.rawValue) != 0,
        changed: events & Int32(UV_CHANGE.rawValue) != 0
    )
    LoopHandle.dispatch(compose_uv_handle(handle), as: FSEventHandle.self, (change, status)) { owner, event in
        owner.fire(event.0, status: event.1)
    }
}
