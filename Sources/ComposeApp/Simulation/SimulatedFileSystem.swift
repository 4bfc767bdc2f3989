internal import CLibUV
import Compose

/// The file system events of a test context: `FileWatcher`s bound in it
/// register here instead of with inotify, and the test says what changed.
///
/// Every path exists unless the test said it is missing (or deleted it, or
/// one of its parent directories); watching a missing path fails with
/// `ENOENT` as inotify does. Events follow `FileWatcher`'s documented
/// semantics: a watcher of a path gets the events of that path itself and
/// of its direct children (not of deeper entries); once the watched path
/// itself was deleted, the watcher reports nothing more. Paths are
/// compared as written (a trailing `/` aside). Deliveries go through the
/// context's clock, never inside the call that caused them.
@MainActor
package final class SimulatedFileSystem {
    /// One `FileWatcher` watching; ``close()`` stops it.
    @MainActor
    final class Watch {
        fileprivate let path: String
        fileprivate weak var files: SimulatedFileSystem?
        fileprivate var onEvent: (@MainActor (FileWatcher.Event) -> Void)?
        /// The watched path itself was deleted: inotify reports nothing
        /// more, though the watch stays open until closed.
        fileprivate var isOver = false

        fileprivate init(path: String, files: SimulatedFileSystem, onEvent: @escaping @MainActor (FileWatcher.Event) -> Void) {
            self.path = path
            self.files = files
            self.onEvent = onEvent
        }

        /// Stops watching. Idempotent.
        func close() {
            onEvent = nil
            files?.detach(self)
            files = nil
        }
    }

    /// Weak: the context owns its world.
    private weak var context: AppContext?
    private var watches: [Watch] = []
    private var missing: Set<String> = []

    init(context: AppContext) {
        self.context = context
    }

    // MARK: The test's side

    /// Whether `path` exists: it was not declared missing or deleted, nor
    /// was any directory above it.
    package func exists(_ path: String) -> Bool {
        var current = Self.normalized(path)
        while true {
            if missing.contains(current) { return false }
            guard let parent = Self.parent(of: current) else { return true }
            current = parent
        }
    }

    /// Declares `path` missing (or present again), without an event.
    package func setExists(_ exists: Bool, at path: String) {
        let path = Self.normalized(path)
        if exists {
            // A path exists only where its directories do.
            var current: String? = path
            while let each = current {
                missing.remove(each)
                current = Self.parent(of: each)
            }
        } else {
            missing.insert(path)
        }
    }

    /// Something happened to `path`: its watchers, and those of its
    /// directory, get the event. `deleted` makes the path missing; the
    /// other kinds make it exist.
    package func change(_ kind: FileWatcher.Event.Kind, at path: String) {
        let path = Self.normalized(path)
        setExists(kind != .deleted, at: path)
        let parent = Self.parent(of: path)
        let targets = watches.filter { !$0.isOver && ($0.path == path || $0.path == parent) }
        guard !targets.isEmpty, let context else { return }
        let event = FileWatcher.Event(path: path, kind: kind)
        context.simulate {
            for watch in targets {
                guard !watch.isOver, let onEvent = watch.onEvent else { continue }
                if kind == .deleted, watch.path == path { watch.isOver = true }
                onEvent(event)
            }
        }
    }

    // MARK: The app's side

    /// Starts watching `path`. A watch keeps the app running, as an active
    /// handle keeps a loop alive.
    ///
    /// - Throws: `ENOENT` naming the path when it does not exist.
    func watch(_ path: String, _ onEvent: @escaping @MainActor (FileWatcher.Event) -> Void) throws(LoopError) -> Watch {
        guard exists(path) else {
            throw LoopError("uv_fs_event_start", code: UV_ENOENT.rawValue, context: path)
        }
        let watch = Watch(path: Self.normalized(path), files: self, onEvent: onEvent)
        watches.append(watch)
        context?.beginWork()
        return watch
    }

    private func detach(_ watch: Watch) {
        guard let index = watches.firstIndex(where: { $0 === watch }) else { return }
        watches.remove(at: index)
        context?.endWork()
    }

    // MARK: Paths

    private static func normalized(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The directory of `path`, or `nil` for `/` and a name without one.
    private static func parent(of path: String) -> String? {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension AppContext {
    /// The file system events of a test context (`TestApp`'s).
    var simulatedFiles: SimulatedFileSystem? { simulation?.files }
}
