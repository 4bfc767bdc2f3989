#if canImport(Glibc)
import Glibc
#endif

/// Where inspection sockets live, and the checks that keep other users out.
///
/// The directory is `$XDG_RUNTIME_DIR/compose` (when that variable is an
/// absolute path), else `/tmp/compose-<uid>`. It must be a real directory
/// (not a symbolic link) owned by the app's user with mode `0700`: one that
/// exists with wider permissions or another owner is refused (the app runs
/// without inspection and logs why), since whoever controls it could
/// swap sockets. Each app's socket in it is named `<name>.<pid>.sock`, so
/// `compose inspect` lists the apps without asking each one.
enum InspectionDirectory {
    /// The directory for the user `uid`, from `environment` (the
    /// process's when `nil`).
    static func path(uid: UInt32, environment: [String: String]? = nil) -> String {
        let runtime = environment.map { $0["XDG_RUNTIME_DIR"] } ?? getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        if let runtime, runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/compose"
        }
        return "/tmp/compose-\(uid)"
    }

    /// Makes `path` (mode `0700`) if it is missing, then checks it.
    ///
    /// - Throws: ``LoopError/Code/permissionDenied`` (`EACCES`) when it is
    ///   not a directory, is a symbolic link, belongs to another user than
    ///   `uid`, or its group or others have any permission; the error of
    ///   `mkdir` or `lstat` otherwise.
    static func prepare(_ path: String, uid: UInt32) throws(LoopError) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw LoopError("mkdir", errno: errno, context: path)
        }
        try check(path, uid: uid)
    }

    /// Checks that `path` is a directory only `uid` may use (see
    /// ``prepare(_:uid:)``).
    static func check(_ path: String, uid: UInt32) throws(LoopError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw LoopError("lstat", errno: errno, context: path) }
        if info.st_mode & S_IFMT != S_IFDIR {
            throw refusal(path, "is not a directory (a symbolic link or another file)")
        }
        if info.st_uid != uid {
            throw refusal(path, "belongs to uid \(info.st_uid), not to this user (uid \(uid))")
        }
        if info.st_mode & 0o077 != 0 {
            throw refusal(path, "has mode \(octal(info.st_mode & 0o777)); it must be 0700 (owner only)")
        }
    }

    /// Checks that the socket file at `path` belongs to `uid` and only
    /// they may connect (mode `0600` or narrower): what a client checks
    /// before it talks to an app.
    static func checkSocket(_ path: String, uid: UInt32) throws(LoopError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw LoopError("lstat", errno: errno, context: path) }
        if info.st_mode & S_IFMT != S_IFSOCK { throw refusal(path, "is not a socket") }
        if info.st_uid != uid { throw refusal(path, "belongs to uid \(info.st_uid), not to this user (uid \(uid))") }
        if info.st_mode & 0o077 != 0 {
            throw refusal(path, "has mode \(octal(info.st_mode & 0o777)); it must be 0600 (owner only)")
        }
    }

    private static func refusal(_ path: String, _ reason: String) -> LoopError {
        LoopError("inspection", errno: EACCES, context: "\(path), which \(reason)")
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: Socket names

    /// The longest app name in a socket's file name: the whole path must fit
    /// a Unix socket address (107 bytes).
    static let maximumNameLength = 40

    /// `<name>.<pid>.sock`, the name made safe: letters, digits, `-` and
    /// `_` kept, anything else `_`, at most ``maximumNameLength`` bytes.
    static func socketName(app: String, pid: Int32) -> String {
        // ASCII letters, digits, `-` and `_` stay; any other scalar is `_`.
        // (By value: Unicode's properties would cost every app's startup a
        // lookup in the standard library's tables.)
        var bytes: [UInt8] = []
        for scalar in app.unicodeScalars where bytes.count < maximumNameLength {
            let value = scalar.value
            let kept = (value >= 0x61 && value <= 0x7A) || (value >= 0x41 && value <= 0x5A) || (value >= 0x30 && value <= 0x39)
                || value == 0x2D || value == 0x5F
            bytes.append(kept ? UInt8(value) : UInt8(ascii: "_"))
        }
        let name = bytes.isEmpty ? "app" : String(decoding: bytes, as: UTF8.self)
        return "\(name).\(pid).sock"
    }

    /// The app name and pid in a socket's file name, or `nil` when it is
    /// not one of ours.
    static func parse(socketName: String) -> (name: String, pid: Int32)? {
        guard socketName.hasSuffix(".sock") else { return nil }
        let stem = socketName.dropLast(".sock".count)
        guard let dot = stem.lastIndex(of: "."), let pid = Int32(stem[stem.index(after: dot)...]), pid > 0 else { return nil }
        let name = stem[..<dot]
        guard !name.isEmpty else { return nil }
        return (String(name), pid)
    }

    // MARK: Stale sockets

    /// Removes the socket files in `directory` left by apps that are no
    /// longer running (their pid is not alive), and returns their names.
    /// Only sockets named as ours (`<name>.<pid>.sock`) and owned by
    /// `uid` are touched.
    ///
    /// - Parameter isAlive: Whether a process runs (`kill(pid, 0)` by
    ///   default; tests pass their own).
    static func removeStaleSockets(in directory: String, uid: UInt32, isAlive: (Int32) -> Bool = processIsAlive) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var removed: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let parsed = parse(socketName: name), !isAlive(parsed.pid) else { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == uid else { continue }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// Whether the process `pid` exists (`kill(pid, 0)`; one of another
    /// user answers `EPERM`, and exists).
    static func processIsAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
