public import ComposeApp

/// The file system as a ``TestApp``'s `FileWatcher`s see it
/// (``TestApp/files``): nothing is watched on disk, the test says what
/// changed.
///
/// ```swift
/// let app = TestApp(root: ConfigReloader()) { app in
///     app.files.markMissing("/etc/app/extra.conf")
/// }
/// app.files.modify("/etc/app/app.conf")   // watchers of the file and of /etc/app
/// app.files.delete("/etc/app/app.conf")
/// ```
///
/// An event reaches the watchers of its path and of the path's directory
/// (a watched directory sees its direct entries only, as with inotify);
/// after the watched path itself is deleted its watcher reports nothing
/// more. Every path exists unless declared missing or deleted (or one of
/// its directories is); watching a missing path fails with `notFound` on
/// the watcher's `errors`. Paths are compared as written. Each call runs
/// what it made due in the app before it returns.
@MainActor
public struct TestFileSystem {
    private let app: TestApp
    private let files: SimulatedFileSystem

    init(app: TestApp, files: SimulatedFileSystem) {
        self.app = app
        self.files = files
    }

    /// Reports `kind` at `path` to the watchers of `path` and of its
    /// directory. `deleted` makes the path missing; the other kinds make it
    /// exist.
    public func send(_ kind: FileWatcher.Event.Kind, at path: String) {
        app.perform("TestFileSystem.send(_:at:)") { files.change(kind, at: path) }
    }

    /// The contents or attributes of `path` changed (`FileWatcher.Event.Kind.modified`).
    public func modify(_ path: String) {
        send(.modified, at: path)
    }

    /// `path` appeared (`FileWatcher.Event.Kind.created`).
    public func create(_ path: String) {
        send(.created, at: path)
    }

    /// `path` disappeared (`FileWatcher.Event.Kind.deleted`).
    public func delete(_ path: String) {
        send(.deleted, at: path)
    }

    /// Something else took the name `path`, such as an editor's atomic save
    /// (`FileWatcher.Event.Kind.renamed`).
    public func replace(_ path: String) {
        send(.renamed, at: path)
    }

    /// Declares `path` missing, without an event: watching it (or anything
    /// under it) fails with `notFound`, as does a `ChildProcess` whose
    /// working directory it is.
    public func markMissing(_ path: String) {
        files.setExists(false, at: path)
    }

    /// Whether `path` exists as far as the app can tell.
    public func exists(_ path: String) -> Bool {
        files.exists(path)
    }
}
