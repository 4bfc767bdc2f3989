public import ComposeApp
public import Testing

/// The file system of a ``TestApp`` (``TestApp/files``): files with
/// contents, which the test writes, appends to, truncates, renames and
/// deletes, and which the app reads (`AppContext.readFile`, `FileTail`)
/// and watches (`FileWatcher`) instead of the disk.
///
/// ```swift
/// let app = TestApp(root: LogShipper()) { app in
///     app.files.write("/var/log/app.log", "started\n")
/// }
/// app.files.append("/var/log/app.log", "request 1\n")
/// app.files.rename("/var/log/app.log", to: "/var/log/app.log.1")   // logrotate
/// app.files.write("/var/log/app.log", "request 2\n")
/// #expect(app.files.text(of: "/var/log/app.log.1") == "started\nrequest 1\n")
/// ```
///
/// **Paths.** A path names a file once the test wrote one there. Every
/// other path is a directory that exists, unless declared missing
/// (``markMissing(_:)``) or deleted, or renamed away, or a directory above
/// it is: so a watcher of any directory works without setting anything
/// up. Writing a file makes its directories exist (as `mkdir -p`). Paths
/// are compared as written.
///
/// **Events.** Each call gives the app's watchers the inotify events Linux
/// gives for the same system calls, in the kernel's order, and
/// `FileWatcher` derives its events from them as it does on Linux (the
/// same code). So a rename is seen from both names: a watcher of the
/// directory gets `deleted` (or `renamed`) for the old name and `created`
/// (or `renamed`) for the new one; a watcher of the file itself follows
/// the file to its new name; a deleted file's watcher gets `modified` (its
/// link count) and `deleted`, then nothing more. Each call runs what it
/// made due before it returns, so the app sees the file system after each
/// call; calls made together inside `app.run { }` are seen together, as a
/// reader that is slower than the writer sees them (after `mv app.log
/// app.log.1` and a new `app.log` in one `run`, both events about
/// `app.log` say `renamed`, as on Linux).
///
/// A call the file system refuses (renaming a file that is not there,
/// writing where a directory with entries is) is recorded as a test issue
/// and changes nothing.
@MainActor
public struct TestFileSystem {
    private let app: TestApp
    private let files: SimulatedFileSystem

    init(app: TestApp, files: SimulatedFileSystem) {
        self.app = app
        self.files = files
    }

    // MARK: Contents

    /// Writes `text` to the file at `path` in place of its contents,
    /// creating it if needed (`open` with `O_CREAT | O_TRUNC`, then
    /// `write`): a new name is reported `created`, then each truncation and
    /// each write of at least one byte `modified`.
    public func write(_ path: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        write(path, bytes: Array(text.utf8), sourceLocation: sourceLocation)
    }

    /// Writes `bytes` to the file at `path` in place of its contents (see
    /// ``write(_:_:sourceLocation:)``).
    public func write(_ path: String, bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        perform("write(_:bytes:)", sourceLocation) { () throws(SimulatedFileSystem.Misuse) in
            try files.write(path, bytes, appending: false)
        }
    }

    /// Appends `text` to the file at `path`, creating it if needed (`open`
    /// with `O_APPEND | O_CREAT`, then `write`): `modified` (after
    /// `created` for a new file); nothing for an empty text.
    public func append(_ path: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        append(path, bytes: Array(text.utf8), sourceLocation: sourceLocation)
    }

    /// Appends `bytes` to the file at `path` (see
    /// ``append(_:_:sourceLocation:)``).
    public func append(_ path: String, bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        perform("append(_:bytes:)", sourceLocation) { () throws(SimulatedFileSystem.Misuse) in
            try files.write(path, bytes, appending: true)
        }
    }

    /// Cuts the file at `path` to `size` bytes, or extends it with zeros
    /// (`truncate(2)`): `modified`. The file must exist.
    public func truncate(_ path: String, to size: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        perform("truncate(_:to:)", sourceLocation) { () throws(SimulatedFileSystem.Misuse) in
            try files.truncate(path, to: size)
        }
    }

    /// Renames the file at `from` to `to` (`rename(2)`, `mv` within one
    /// file system), replacing a file at `to`. Watchers of the directory
    /// see the old name go and the new one come; watchers of the file
    /// follow it; watchers of a replaced file see it go. An app that has
    /// the file open goes on reading it.
    public func rename(_ from: String, to: String, sourceLocation: SourceLocation = #_sourceLocation) {
        perform("rename(_:to:)", sourceLocation) { () throws(SimulatedFileSystem.Misuse) in
            try files.rename(from, to: to)
        }
    }

    /// The contents of the file at `path`, or `nil` if no file is there.
    public func contents(of path: String) -> [UInt8]? {
        files.file(at: path)?.bytes
    }

    /// The contents of the file at `path` as UTF-8 text, or `nil` if no
    /// file is there.
    public func text(of path: String) -> String? {
        contents(of: path).map { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: Names

    /// Creates an empty file at `path`, or empties the one there (as
    /// ``write(_:_:sourceLocation:)`` with no text): `created` for a new
    /// name, `modified` for an existing file.
    public func create(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        write(path, bytes: [], sourceLocation: sourceLocation)
    }

    /// Changes the times of `path` (`touch`): `modified` for its watchers
    /// and its directory's; a missing path becomes an empty file first
    /// (`created`).
    public func modify(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        perform("modify(_:)", sourceLocation) { () throws(SimulatedFileSystem.Misuse) in
            try files.touch(path)
        }
    }

    /// Deletes the file at `path` (`unlink`), or the directory at `path`
    /// with everything under it (`rm -r`). Its directory's watchers see
    /// `deleted`; its own watcher sees `modified`, `deleted`, then nothing
    /// more. An app that has the file open goes on reading it.
    public func delete(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        perform("delete(_:)", sourceLocation) { () throws(SimulatedFileSystem.Misuse) in
            try files.delete(path)
        }
    }

    /// Puts a new file holding `text` at `path`, as moving a file written
    /// elsewhere onto it does (an editor's atomic save, an `install`): its
    /// directory's watchers see `renamed` (`created` if nothing was
    /// there); the replaced file's watchers see it go.
    public func replace(_ path: String, with text: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        perform("replace(_:with:)", sourceLocation) { () throws(SimulatedFileSystem.Misuse) in
            try files.replace(path, with: Array(text.utf8))
        }
    }

    /// Makes the directory `path` exist, and those above it (`mkdir -p`):
    /// each one that was missing is reported `created` in its parent.
    public func makeDirectory(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        perform("makeDirectory(_:)", sourceLocation) { () throws(SimulatedFileSystem.Misuse) in
            try files.makeDirectory(path)
        }
    }

    /// Does to `path` what an event of `kind` says happened:
    /// `.modified` is ``modify(_:sourceLocation:)``, `.created`
    /// ``create(_:sourceLocation:)``, `.deleted`
    /// ``delete(_:sourceLocation:)``, `.renamed`
    /// ``replace(_:with:sourceLocation:)``.
    public func send(_ kind: FileWatcher.Event.Kind, at path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        switch kind {
        case .modified: modify(path, sourceLocation: sourceLocation)
        case .created: create(path, sourceLocation: sourceLocation)
        case .deleted: delete(path, sourceLocation: sourceLocation)
        case .renamed: replace(path, sourceLocation: sourceLocation)
        }
    }

    /// Declares `path` missing, and everything under it, without an event:
    /// watching it fails with `notFound`, as does reading it, or a
    /// `ChildProcess` whose working directory it is.
    public func markMissing(_ path: String) {
        files.setExists(false, at: path)
    }

    /// Whether `path` exists (a file, or a directory) as far as the app
    /// can tell.
    public func exists(_ path: String) -> Bool {
        files.exists(path)
    }

    private func perform(_ call: String, _ sourceLocation: SourceLocation, _ body: () throws(SimulatedFileSystem.Misuse) -> Void) {
        app.perform("TestFileSystem.\(call)") {
            do {
                try body()
            } catch {
                Issue.record(Comment(rawValue: "TestFileSystem.\(call): \(error)"), sourceLocation: sourceLocation)
            }
        }
    }
}
