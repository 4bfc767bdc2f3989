internal import CLibUV
import Compose

/// The file system of a test context: files with contents, which the test
/// writes, appends to, truncates, renames and deletes, and which the app
/// reads (`AppContext.readFile`, `FileTail`) and watches (`FileWatcher`)
/// instead of the disk's.
///
/// **The model.** A path names a file once the test wrote one there
/// (``write(_:_:appending:)``, ``touch(_:)``, ...). Every other path is a
/// directory that exists, unless the test said it is missing
/// (``markMissing(_:)``, a deletion, a rename away) or a directory above
/// it is; so a watch of any path works without setting up its
/// directories. Writing a file makes its directories exist (as `mkdir -p`).
/// A file is an inode (``SimulatedFile``): renaming it moves the inode,
/// and an app that opened it, or a watch started on it, keeps it. Paths
/// are compared as written (a trailing `/` aside).
///
/// **The events.** Each operation queues the inotify events Linux gives
/// for it, in the kernel's order, as libuv reports them (`UV_RENAME` for a
/// name created, deleted or moved, `UV_CHANGE` for contents or attributes);
/// `FileWatcher` turns them into its events exactly as it does with
/// inotify's (see ``SimulatedFileSystem/Watch``). A queued event equal to
/// the last one queued is merged into it, as inotify merges them. The
/// queue is delivered through the context's clock once the call that
/// caused it has returned, so the app sees the file system as it is after
/// the whole call (several operations in one `TestApp.run { }` are seen
/// together, as a slow reader sees them).
@MainActor
package final class SimulatedFileSystem {
    /// A test asked for something the file system cannot do (renaming a
    /// missing file, writing a file where a directory is).
    package struct Misuse: Error, CustomStringConvertible {
        package let description: String
    }

    /// Weak: the context owns its world.
    weak var context: AppContext?
    /// The files, by path. Only paths that exist.
    private(set) var files: [String: SimulatedFile] = [:]
    /// Paths declared missing, deleted or renamed away.
    private var missing: Set<String> = []
    /// Directories the test made (``makeDirectory(_:)``).
    private var madeDirectories: Set<String> = []
    private var nextInode: UInt64 = 1
    /// The watches, in the order they started.
    var watches: [Watch] = []
    /// Events queued and not delivered yet.
    var pendingEvents: [QueuedEvent] = []
    var isDeliveryScheduled = false
    /// Numbers queued events, so a watch gets only those queued after it started.
    var sequence = 0

    init(context: AppContext) {
        self.context = context
    }

    // MARK: Paths

    /// Whether `path` exists: a file, or a directory not declared missing,
    /// with no missing directory or file above it.
    package func exists(_ path: String) -> Bool {
        let path = Self.normalized(path)
        var current = path
        while true {
            if missing.contains(current) { return false }
            if current != path, files[current] != nil { return false }
            guard let parent = Self.parent(of: current) else { return true }
            current = parent
        }
    }

    /// The file at `path`, if one is there.
    package func file(at path: String) -> SimulatedFile? {
        files[Self.normalized(path)]
    }

    /// Whether `path` is a directory (exists and is not a file).
    func isDirectory(_ path: String) -> Bool {
        let path = Self.normalized(path)
        return files[path] == nil && exists(path)
    }

    /// Whether `path` is something a directory listing would show: a
    /// file, or a directory the test made, that holds a file or that is
    /// watched. (Every other path exists only in that a watch of it works:
    /// `FileWatcher` asks this when it tells a created name from a
    /// renamed one, as it asks `lstat` on Linux.)
    func isKnown(_ path: String) -> Bool {
        let path = Self.normalized(path)
        guard exists(path) else { return false }
        return files[path] != nil || !knownPaths(under: path == "/" ? "/" : path + "/").isEmpty
            || knownPaths(under: "").contains(path)
    }

    /// The files, made directories and watched directories whose paths
    /// start with `prefix`.
    private func knownPaths(under prefix: String) -> [String] {
        let watched = watches.compactMap { watch -> String? in
            if case .directory(let path) = watch.target { path } else { nil }
        }
        return (Array(files.keys) + Array(madeDirectories) + watched).filter { $0.hasPrefix(prefix) && exists($0) }
    }

    /// The names in directory `path`: of the files, made directories and
    /// watched directories below it.
    func entries(of path: String) -> Set<String> {
        let prefix = Self.normalized(path) == "/" ? "/" : Self.normalized(path) + "/"
        var names: Set<String> = []
        for each in knownPaths(under: prefix) where each.count > prefix.count {
            let rest = each.dropFirst(prefix.count)
            names.insert(String(rest.prefix { $0 != "/" }))
        }
        return names
    }

    // MARK: The test's side

    /// Declares `path` (and everything under it) missing, or, with
    /// `exists`, present again as a directory, without an event.
    package func setExists(_ exists: Bool, at path: String) {
        let path = Self.normalized(path)
        if exists {
            var current: String? = path
            while let each = current {
                missing.remove(each)
                current = Self.parent(of: each)
            }
        } else {
            removeFiles(at: path)
            missing.insert(path)
        }
    }

    /// Writes `bytes` to the file at `path`, creating it if needed: after
    /// what it holds with `appending`, else in place of it (`open` with
    /// `O_TRUNC`). Events: a created name, then a change per truncation and
    /// per write of at least one byte.
    package func write(_ path: String, _ bytes: [UInt8], appending: Bool) throws(Misuse) {
        let path = Self.normalized(path)
        if let file = files[path] {
            if !appending { truncate(file, at: path, to: 0) }
        } else {
            try create(path)
        }
        guard !bytes.isEmpty, let file = files[path] else { return }
        file.bytes.append(contentsOf: bytes)
        modified(file, at: path)
    }

    /// Sets the size of the file at `path` (`truncate(2)`: cut, or
    /// extended with zeros). One change event, whatever the size.
    package func truncate(_ path: String, to size: Int) throws(Misuse) {
        let path = Self.normalized(path)
        guard let file = files[path] else { throw Misuse(description: "cannot truncate \(path): no file there (write one first)") }
        truncate(file, at: path, to: max(0, size))
    }

    /// Updates the times of `path` (`touch`): creates an empty file if
    /// nothing is there; an attribute change event.
    package func touch(_ path: String) throws(Misuse) {
        let path = Self.normalized(path)
        if !exists(path) { try create(path) }
        let (parent, name) = Self.split(path)
        if let parent { queue(.directory(parent), name: name, .attrib) }
        if let file = files[path] {
            queue(.file(file.inode), name: nil, .attrib)
        } else {
            queue(.directory(path), name: nil, .attrib)
        }
    }

    /// Renames the file at `from` to `to` (`rename(2)`), replacing a file
    /// there. The old name is reported moved from, the new one moved to;
    /// watches of the file follow it; a replaced file's watches report it
    /// gone.
    package func rename(_ from: String, to: String) throws(Misuse) {
        let from = Self.normalized(from), to = Self.normalized(to)
        guard let file = files[from] else {
            throw Misuse(description: isKnown(from)
                ? "cannot rename \(from): a directory (the simulation renames files only)"
                : "cannot rename \(from): no such file (the test wrote none there)")
        }
        guard from != to else { return }
        try makeDirectories(above: to)
        guard files[to] != nil || entries(of: to).isEmpty else {
            throw Misuse(description: "cannot rename \(from) to \(to): a directory with entries is there")
        }
        let (fromParent, fromName) = Self.split(from)
        let (toParent, toName) = Self.split(to)
        if let fromParent { queue(.directory(fromParent), name: fromName, .movedFrom) }
        if let toParent { queue(.directory(toParent), name: toName, .movedTo) }
        moveIn(file, to: to, afterMovedTo: true)
        files[from] = nil
        missing.insert(from)
    }

    /// Replaces the file at `path` with a new one holding `bytes`, as
    /// moving a file written elsewhere onto it does (an editor's atomic
    /// save): the name is reported moved to; the replaced file's watches
    /// report it gone.
    package func replace(_ path: String, with bytes: [UInt8]) throws(Misuse) {
        let path = Self.normalized(path)
        try makeDirectories(above: path)
        guard files[path] != nil || entries(of: path).isEmpty else {
            throw Misuse(description: "cannot replace \(path): a directory with entries is there")
        }
        let file = newFile(bytes)
        let (parent, name) = Self.split(path)
        if let parent { queue(.directory(parent), name: name, .movedTo) }
        moveIn(file, to: path, afterMovedTo: false)
    }

    /// Deletes the file at `path` (`unlink`), or the directory at `path`
    /// with everything under it (`rm -r`).
    package func delete(_ path: String) throws(Misuse) {
        let path = Self.normalized(path)
        guard exists(path) else { throw Misuse(description: "cannot delete \(path): it does not exist") }
        if let file = files[path] {
            unlink(file, at: path)
            return
        }
        let prefix = path == "/" ? "/" : path + "/"
        // Deepest first, as `rm -r` goes.
        let below = files.keys.filter { $0.hasPrefix(prefix) }
        var directories: Set<String> = []
        for each in below {
            var current = Self.parent(of: each)
            while let directory = current, directory.hasPrefix(prefix) {
                directories.insert(directory)
                current = Self.parent(of: directory)
            }
        }
        for watch in watches {
            if case .directory(let watched) = watch.target, watched.hasPrefix(prefix) { directories.insert(watched) }
        }
        let order = (below.map { ($0, true) } + directories.map { ($0, false) }).sorted { first, second in
            let (one, other) = (first.0.split(separator: "/").count, second.0.split(separator: "/").count)
            return one != other ? one > other : first.0 < second.0
        }
        for (each, isFile) in order {
            if isFile, let file = files[each] {
                unlink(file, at: each)
            } else if !isFile {
                removeDirectory(each)
            }
        }
        removeDirectory(path)
    }

    /// Makes the directory `path` and those above it exist (`mkdir -p`):
    /// each one that was missing is reported created in its parent.
    package func makeDirectory(_ path: String) throws(Misuse) {
        let path = Self.normalized(path)
        try makeDirectories(above: path)
        if files[path] != nil { throw Misuse(description: "cannot make directory \(path): a file is there") }
        madeDirectories.insert(path)
        if missing.remove(path) != nil, let parent = Self.parent(of: path) {
            queue(.directory(parent), name: Self.baseName(path), .create)
        }
    }

    // MARK: Operations

    private func newFile(_ bytes: [UInt8] = []) -> SimulatedFile {
        defer { nextInode += 1 }
        return SimulatedFile(inode: nextInode, bytes: bytes)
    }

    /// Creates an empty file at `path` (nothing there but a directory
    /// without entries, taken as nothing).
    private func create(_ path: String) throws(Misuse) {
        try makeDirectories(above: path)
        guard entries(of: path).isEmpty else {
            throw Misuse(description: "cannot write \(path): a directory with entries is there")
        }
        missing.remove(path)
        files[path] = newFile()
        let (parent, name) = Self.split(path)
        if let parent { queue(.directory(parent), name: name, .create) }
    }

    /// Makes the directories above `path` exist, reporting those that come
    /// back; fails where a file is.
    private func makeDirectories(above path: String) throws(Misuse) {
        var chain: [String] = []
        var current = Self.parent(of: path)
        while let each = current {
            chain.append(each)
            current = Self.parent(of: each)
        }
        for directory in chain.reversed() {
            if files[directory] != nil {
                throw Misuse(description: "cannot write \(path): \(directory) is a file")
            }
            if missing.remove(directory) != nil, let parent = Self.parent(of: directory) {
                queue(.directory(parent), name: Self.baseName(directory), .create)
            }
        }
    }

    private func truncate(_ file: SimulatedFile, at path: String, to size: Int) {
        if size < file.bytes.count {
            file.bytes.removeLast(file.bytes.count - size)
        } else if size > file.bytes.count {
            file.bytes.append(contentsOf: repeatElement(0, count: size - file.bytes.count))
        }
        modified(file, at: path)
    }

    private func modified(_ file: SimulatedFile, at path: String) {
        let (parent, name) = Self.split(path)
        if let parent { queue(.directory(parent), name: name, .modify) }
        queue(.file(file.inode), name: nil, .modify)
    }

    /// Puts `file` at `path` (after the moved-to event), replacing what was
    /// there: the replaced file loses a link, the moved one reports its
    /// move (if it had a name before), the replaced one its end.
    private func moveIn(_ file: SimulatedFile, to path: String, afterMovedTo moved: Bool) {
        let replaced = files[path]
        if let replaced { queue(.file(replaced.inode), name: nil, .attrib) }
        if moved { queue(.file(file.inode), name: nil, .moveSelf) }
        if let replaced {
            queue(.file(replaced.inode), name: nil, .deleteSelf)
            queue(.file(replaced.inode), name: nil, .ignored)
        }
        missing.remove(path)
        files[path] = file
    }

    private func unlink(_ file: SimulatedFile, at path: String) {
        queue(.file(file.inode), name: nil, .attrib)
        queue(.file(file.inode), name: nil, .deleteSelf)
        queue(.file(file.inode), name: nil, .ignored)
        let (parent, name) = Self.split(path)
        if let parent { queue(.directory(parent), name: name, .delete) }
        files[path] = nil
        missing.insert(path)
    }

    private func removeDirectory(_ path: String) {
        queue(.directory(path), name: nil, .deleteSelf)
        queue(.directory(path), name: nil, .ignored)
        let (parent, name) = Self.split(path)
        if let parent { queue(.directory(parent), name: name, .delete) }
        removeFiles(at: path)
        missing.insert(path)
    }

    /// Forgets the files at and under `path`, without an event.
    private func removeFiles(at path: String) {
        let prefix = path == "/" ? "/" : path + "/"
        for each in files.keys where each == path || each.hasPrefix(prefix) {
            files[each] = nil
        }
        madeDirectories = madeDirectories.filter { $0 != path && !$0.hasPrefix(prefix) }
    }

    // MARK: Path strings

    static func normalized(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The directory of `path`, or `nil` for `/` and a name without one.
    static func parent(of path: String) -> String? {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func baseName(_ path: String) -> String {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static func split(_ path: String) -> (parent: String?, name: String) {
        (parent(of: path), baseName(path))
    }
}

extension AppContext {
    /// The file system of a test context (`TestApp`'s).
    var simulatedFiles: SimulatedFileSystem? { simulation?.files }
}
