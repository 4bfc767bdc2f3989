#if canImport(Glibc)
import Glibc
#endif

/// Persisted state as files of one directory, written crash-safely: the
/// back end the runtime gives an app's state persistence (see
/// ``StartupConfiguration/statePersistence``), in the app's state
/// directory.
///
/// Each key is one file, `<key>.json` (characters other than letters,
/// digits, `-`, `_` and `.` are percent-encoded, so a key never leaves the
/// directory). A save never leaves a torn file behind, whenever the process
/// dies or the power fails:
///
/// 1. the directory is created if missing (mode 0700, its parent synced);
/// 2. the bytes go to a temporary file in the same directory,
///    `.<key>.json.<pid>.tmp` (mode 0600), which is `fsync`ed and closed;
/// 3. `rename` puts it in place of the previous file, atomically;
/// 4. the directory is `fsync`ed, so the rename itself is durable.
///
/// A failing step (no space left, permission denied, read-only file system)
/// throws a ``LoopError`` naming the call, the errno and the path, removes
/// the temporary file and leaves the previous file as it was. Temporary
/// files of processes that died mid-save are removed when their key is next
/// loaded.
///
/// Every call is a few plain system calls, synchronous on the calling
/// (loop) thread: meant for small states (1 MB took 15-20 ms on the
/// benchmark machine, nearly all of it in the two `fsync`s).
///
/// ```swift
/// let storage = FileStateStorage(directory: "/var/lib/myapp")
/// try storage.save(Array(#"{"version":1,"state":{}}"#.utf8), key: "settings")
/// ```
@MainActor
public final class FileStateStorage: StateStorage {
    /// The directory the files are in (created at the first save).
    public let directory: String

    /// Storage in `directory` (an absolute path, normally).
    public init(directory: String) {
        self.directory = directory
    }

    /// The path of the file of `key`.
    public func location(of key: String) -> String {
        directory + "/" + Self.fileName(for: key)
    }

    /// The contents of the file of `key`, or `nil` when there is no file.
    ///
    /// - Throws: ``LoopError`` of `open` or `read` naming the path (for
    ///   example ``LoopError/Code/permissionDenied``).
    public func load(key: String) throws(LoopError) -> [UInt8]? {
        let name = Self.fileName(for: key)
        removeStaleTemporaryFiles(of: name)
        let path = directory + "/" + name
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw LoopError("open", errno: errno, context: path)
        }
        defer { close(fd) }
        return try Self.readAll(fd, path: path)
    }

    /// Writes `bytes` as the file of `key`, crash-safely (see the type's
    /// documentation for the steps).
    ///
    /// - Throws: ``LoopError`` of the step that failed (`mkdir`, `open`,
    ///   `write`, `fsync`, `close`, `rename`), naming the path; the previous
    ///   file is intact. (Only when the last step, the directory's `fsync`,
    ///   fails is the new file already in place, not known to survive a
    ///   power loss; saving again repeats it.)
    public func save(_ bytes: [UInt8], key: String) throws(LoopError) {
        let name = Self.fileName(for: key)
        let directoryFD = try openDirectory(creating: true)
        defer { close(directoryFD) }
        let temporary = ".\(name).\(getpid()).tmp"
        let temporaryPath = directory + "/" + temporary
        var fd = openat(directoryFD, temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { throw LoopError("open", errno: errno, context: temporaryPath) }
        do throws(LoopError) {
            try Self.writeAll(fd, bytes, path: temporaryPath)
            if fsync(fd) != 0 { throw LoopError("fsync", errno: errno, context: temporaryPath) }
            let closed = close(fd)
            fd = -1
            // NFS and some FUSE file systems report write errors at close.
            if closed != 0 { throw LoopError("close", errno: errno, context: temporaryPath) }
            if renameat(directoryFD, temporary, directoryFD, name) != 0 {
                throw LoopError("rename", errno: errno, context: "\(temporaryPath) to \(name)")
            }
        } catch {
            if fd >= 0 { close(fd) }
            unlinkat(directoryFD, temporary, 0)
            throw error
        }
        if fsync(directoryFD) != 0 { throw LoopError("fsync", errno: errno, context: directory) }
    }

    /// Renames the file of `key` to `<key>.json.corrupt-<UTC timestamp>`
    /// (`settings.json.corrupt-20261123T101500Z`, with `-2`, `-3`, ... when
    /// that name is taken) and syncs the directory.
    ///
    /// - Returns: The new path.
    /// - Throws: ``LoopError`` of `rename` or `fsync`.
    public func moveAside(key: String) throws(LoopError) -> String {
        let name = Self.fileName(for: key)
        let directoryFD = try openDirectory(creating: false)
        defer { close(directoryFD) }
        let stem = "\(name).corrupt-\(Self.timestamp())"
        var target = stem
        var attempt = 1
        var status = stat()
        while fstatat(directoryFD, target, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            attempt += 1
            target = "\(stem)-\(attempt)"
        }
        if renameat(directoryFD, name, directoryFD, target) != 0 {
            throw LoopError("rename", errno: errno, context: "\(directory)/\(name) to \(target)")
        }
        if fsync(directoryFD) != 0 { throw LoopError("fsync", errno: errno, context: directory) }
        return directory + "/" + target
    }

    /// The file name of `key`: the key with unusual bytes percent-encoded
    /// (and a leading dot), plus `.json`.
    nonisolated static func fileName(for key: String) -> String {
        var name = ""
        for byte in key.utf8 {
            let isPlain = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
                || (byte == 0x2E && !name.isEmpty)
            if isPlain {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                name += "%" + hexDigits(byte)
            }
        }
        return (name.isEmpty ? "%" : name) + ".json"
    }

    private nonisolated static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
