import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Watches a file or a directory and emits a ``FileWatcher/Event`` for each
/// change libuv reports (inotify on Linux).
///
/// ```swift
/// struct ConfigReloader: Component {
///     let watcher = FileWatcher(path: "/etc/myapp")
///     var observers: Void {
///         watcher += { event in
///             if event.path.hasSuffix(".toml") { reload(event.path) }
///         }
///         watcher.errors += { error in print(error) }
///     }
/// }
/// ```
///
/// Stored in a component, it watches while the component is active and
/// closes its handle when the component is destroyed. Outside a component,
/// call ``start()`` and ``stop()``. An active watcher keeps the loop running.
///
/// **Not recursive.** On Linux a directory watcher sees its direct entries
/// only: a file created, changed or deleted inside a subdirectory is not
/// reported (at most the subdirectory itself, when it is created, deleted
/// or renamed). Watch each directory you care about with its own watcher.
///
/// **What the kinds mean.** libuv reports two things only: "renamed"
/// (an entry appeared or disappeared under a name) and "changed" (contents
/// or attributes). The watcher derives ``Event/Kind`` from the file system
/// when the event is handled, so it is an approximation:
///
/// - ``Event/Kind/modified``: contents or attributes changed.
/// - ``Event/Kind/created``: a name appeared that the watcher did not know
///   (created, or moved in from elsewhere).
/// - ``Event/Kind/deleted``: a known name disappeared (deleted, or moved
///   away; a move inside the directory is `deleted` for the old name and
///   `created` or `renamed` for the new one).
/// - ``Event/Kind/renamed``: a known name now refers to another entry:
///   something was moved onto it (an editor's atomic save), or it was
///   deleted and re-created before the watcher looked.
///
/// The watcher lists the directory when it starts to know its names, then
/// follows the events. An entry created and removed again before the
/// watcher handles the first event is not reported at all.
///
/// **The watched path itself.** A watcher follows the file or directory it
/// started on, not its name. When that file or directory is deleted or
/// moved away, an event with ``path`` is reported as
/// ``Event/Kind/deleted`` (or ``Event/Kind/renamed`` if something else
/// already took the name); a deleted one reports nothing more, a moved one
/// goes on reporting under the old path. Deleting a watched file is
/// reported as ``Event/Kind/modified`` (its link count changed), then
/// once as ``Event/Kind/deleted``. To follow a name across editors'
/// atomic saves or log rotation, watch its directory (or use
/// ``FileTail``).
///
/// What each operation gives, as pinned by a test on Linux:
///
/// | operation | watcher of the directory | watcher of the file |
/// |---|---|---|
/// | create `a` | `created a` | |
/// | write to, append to, truncate or `touch` `a` | `modified a` per write | `modified` per write |
/// | `mv a b` | `deleted a`, `created b` | `deleted` (`renamed` if a new `a` exists) |
/// | `mv tmp a` (onto an existing `a`) | `deleted tmp`, `renamed a` | `modified`, `renamed` |
/// | `rm a` | `deleted a` | `modified`, `deleted` |
///
/// A watcher derives these when it handles the events, from what the file
/// system holds then: after `mv a a.1` and a new `a` made before it looks
/// (logrotate is that fast), both events about `a` say `renamed`.
///
/// **In a test context** (`TestApp`) nothing is watched on disk: the
/// watcher gets the events the test's simulated files give (`app.files`
/// with `write`, `append`, `rename`, `delete`, ...), which are those Linux
/// gives, and derives its events with the same code; watching a path the
/// test declared missing fails with `ENOENT`.
@MainActor
public final class FileWatcher: EmitterProtocol, LoopResource {
    /// One change under the watched path.
    public struct Event: Hashable, Sendable, CustomStringConvertible {
        /// What happened to the entry (see ``FileWatcher`` for how exact
        /// this is).
        public enum Kind: String, Hashable, Sendable {
            /// The entry was created (or moved in).
            case created
            /// The entry's contents or attributes changed.
            case modified
            /// The entry was deleted (or moved out).
            case deleted
            /// The entry was renamed or moved.
            case renamed
        }

        /// The full path of the entry that changed: the watched path joined
        /// with the entry's name for a directory, the watched path itself
        /// for a file (or for the watched directory itself).
        public let path: String
        /// What happened to it.
        public let kind: Kind

        /// A change of kind `kind` to the entry at `path`.
        public init(path: String, kind: Kind) {
            self.path = path
            self.kind = kind
        }

        public var description: String { "\(kind.rawValue) \(path)" }
    }

    /// Each change.
    public let emitter = Emitter<Event>()
    /// Failures: watching a path that does not exist (`ENOENT`, naming the
    /// path), a permission error, or an error reported while watching. Also
    /// logged.
    public let errors = Emitter<LoopError>()
    /// The watched path, as given (without a trailing `/`).
    public let path: String

    /// Whether it starts when its component appears.
    public let startsWithComponent: Bool

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [emitter, errors] }

    /// The watch, while watching (of inotify, or of a test context's
    /// files).
    private var watch: PathWatch?
    private var isClosed = false
    /// The kind last reported for the watched path itself from a rename
    /// event: libuv reports inotify's end of a watch (`IN_IGNORED`) as one
    /// more rename, which is not reported again.
    private var lastSelfRename: Event.Kind?
    private var isDirectory = false
    /// The names believed to exist in a watched directory, to tell
    /// `created` from `renamed`.
    private var knownNames: Set<String> = []

    /// Watches `path` (a file or a directory) while its component is active,
    /// or, outside a component, after ``start()``.
    ///
    /// - Parameters:
    ///   - path: The file or directory to watch.
    ///   - startsWithComponent: `false` to start it yourself even inside a
    ///     component (it still stops when the component disappears).
    public init(path: String, startsWithComponent: Bool = true) {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.path = path
        self.startsWithComponent = startsWithComponent
    }

    isolated deinit {
        watch?.close()
    }

    /// Whether the watcher is watching.
    public var isWatching: Bool { watch != nil }

    /// Starts watching. A failure (a missing path is `ENOENT`) is logged and
    /// sent on ``errors``; the watcher then stays stopped. Does nothing if it
    /// is already watching, or once closed.
    public func start() {
        guard !isClosed, !isWatching else { return }
        do {
            watch = try PathWatch.start(path, context: emitter.ownerContext, for: "FileWatcher(\(path)).start", { [weak self] change in
                self?.received(change)
            }, onError: { [weak self] error in
                self?.failed(error)
            })
        } catch {
            failed(error)
            return
        }
        lastSelfRename = nil
        // Listed after the watch started, so that no entry created in
        // between is missed (it is at worst reported as `renamed`).
        isDirectory = isDirectory(path)
        knownNames = isDirectory ? entries(of: path) : []
    }

    /// Stops watching and closes the handle; ``start()`` starts again.
    public func stop() {
        watch?.close()
        watch = nil
        knownNames = []
    }

    /// Stops for good: ``start()`` does nothing afterwards. Idempotent.
    public func close() {
        isClosed = true
        stop()
    }

    // MARK: Events

    private func received(_ change: FSEventHandle.Change) {
        guard let name = entryName(change.name) else {
            // About the watched file or directory itself.
            if change.renamed {
                let kind: Event.Kind = exists(path) ? .renamed : .deleted
                guard kind != lastSelfRename else { return }
                lastSelfRename = kind
                emitter.send(Event(path: path, kind: kind))
            } else if change.changed {
                lastSelfRename = nil
                emitter.send(Event(path: path, kind: .modified))
            }
            return
        }
        lastSelfRename = nil
        let entryPath = entryPath(name)
        if change.renamed {
            if exists(entryPath) {
                let known = !knownNames.insert(name).inserted
                emitter.send(Event(path: entryPath, kind: known ? .renamed : .created))
            } else if knownNames.remove(name) != nil {
                emitter.send(Event(path: entryPath, kind: .deleted))
            }
            // A name neither known nor present came and went before we
            // looked: nothing to report.
        } else if change.changed {
            if exists(entryPath) { knownNames.insert(name) }
            emitter.send(Event(path: entryPath, kind: .modified))
        }
    }

    /// The name of the directory entry libuv reported, or `nil` when the
    /// event is about the watched path itself. libuv names the watched file
    /// or directory by its own base name; in a directory, that is told apart
    /// from an entry of the same name by the entry being neither known nor
    /// present.
    private func entryName(_ name: String?) -> String? {
        guard isDirectory, let name else { return nil }
        if name == Self.baseName(path), !knownNames.contains(name), !exists(entryPath(name)) {
            return nil
        }
        return name
    }

    private func entryPath(_ name: String) -> String {
        path == "/" ? "/" + name : path + "/" + name
    }

    private func failed(_ error: LoopError) {
        logger.error("FileWatcher(\(path)): \(error)")
        errors.send(error)
    }

    // MARK: File system

    // The file system the events are about: the kernel's, or the test
    // context's, asked the same questions at the same moments.

    private func exists(_ path: String) -> Bool {
        watch?.files.map { $0.isKnown(path) } ?? Self.exists(path)
    }

    private func isDirectory(_ path: String) -> Bool {
        watch?.files.map { $0.isDirectory(path) } ?? Self.isDirectory(path)
    }

    private func entries(of directory: String) -> Set<String> {
        watch?.files.map { $0.entries(of: directory) } ?? Self.entries(of: directory)
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), path != "/" else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static func entries(of directory: String) -> Set<String> {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: Set<String> = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.insert(name) }
        }
        return names
    }

    // MARK: ComponentAttachment
}
