import Compose

/// One watch of a path, as libuv reports it (``FSEventHandle/Change``:
/// a name, `UV_RENAME`, `UV_CHANGE`): inotify through a `uv_fs_event_t` in
/// a live app, the simulated file system's events in a test context, so
/// that what is made of the events (``FileWatcher``'s kinds, ``FileTail``'s
/// checks) is the same code in both.
@MainActor
final class PathWatch {
    private enum Source {
        case handle(FSEventHandle)
        case simulated(SimulatedFileSystem.Watch)
    }

    private var source: Source?
    /// The test context's file system, or `nil` for the kernel's.
    let files: SimulatedFileSystem?

    private init(source: Source, files: SimulatedFileSystem?) {
        self.source = source
        self.files = files
    }

    isolated deinit {
        close()
    }

    /// Starts watching `path` in `context` (by default the running app's).
    ///
    /// - Throws: `ENOENT` naming the path when it does not exist, or the
    ///   error libuv reports.
    static func start(
        _ path: String,
        context: AppContext?,
        for operation: String,
        _ onChange: @escaping @MainActor (FSEventHandle.Change) -> Void,
        onError: @escaping @MainActor (LoopError) -> Void
    ) throws(LoopError) -> PathWatch {
        let context = context ?? AppContext.current
        if let files = context?.simulatedFiles {
            return PathWatch(source: .simulated(try files.watch(path, onChange)), files: files)
        }
        let handle = try FSEventHandle(loop: EventLoop.resolve(context, for: operation))
        do {
            try handle.start(path: path, onChange, onError: onError)
        } catch {
            handle.close()
            throw error
        }
        return PathWatch(source: .handle(handle), files: nil)
    }

    /// Stops watching. Idempotent.
    func close() {
        switch source {
        case .handle(let handle): handle.close()
        case .simulated(let watch): watch.close()
        case nil: break
        }
        source = nil
    }
}
