private import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// What ``UnixServer`` checks and does on the file system around binding:
/// the path's length, a stale socket file left by a crashed run, and the
/// socket file's permissions.
enum UnixSocketFile {
    /// The longest path a `sockaddr_un` holds (`sun_path` less its NUL);
    /// libuv 1.44's `uv_pipe_bind` would cut a longer one short silently.
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Makes `path` free to bind: nothing there, or a socket file nobody
    /// listens on (a crashed run's), which is unlinked.
    ///
    /// - Throws: ``LoopError/Code/invalidArgument`` for an empty or too long
    ///   path; ``LoopError/Code/addressInUse`` when a process listens on the
    ///   socket; ``LoopError/Code/alreadyExists`` when the path is something
    ///   other than a socket (left untouched); the error of `lstat`,
    ///   `connect` or `unlink` otherwise.
    static func prepareToBind(_ path: String) throws(LoopError) {
        guard !path.isEmpty, path.utf8.count <= maximumPathLength else {
            throw LoopError.invalidUnixPath(path, operation: "uv_pipe_bind")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let error = errno
            if error == ENOENT { return }
            throw LoopError("lstat", code: -error, context: path)
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw LoopError("uv_pipe_bind", code: UV_EEXIST.rawValue, context: "\(path), which is not a socket (it was left as it is)")
        }
        switch probe(path) {
        case 0:
            throw LoopError("uv_pipe_bind", code: UV_EADDRINUSE.rawValue, context: "\(path) (another process listens on it)")
        case ECONNREFUSED:
            // Nobody listens: a crashed run's file.
            if unlink(path) != 0, errno != ENOENT {
                throw LoopError("unlink", code: -errno, context: "\(path) (a stale socket file)")
            }
        case let error:
            throw LoopError("connect", code: -error, context: "\(path) (checking whether the socket file is stale)")
        }
    }

    /// Tries to connect to the socket at `path` without blocking: 0 when a
    /// process listens (it answered, or its backlog is full), else `errno`
    /// (`ECONNREFUSED` when nobody does).
    private static func probe(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8.prefix(maximumPathLength))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result != 0 else { return 0 }
        let error = errno
        return error == EAGAIN || error == EINPROGRESS ? 0 : error
    }

    /// Sets the permission bits of the socket file at `path`.
    static func setPermissions(_ path: String, _ permissions: UInt16) throws(LoopError) {
        if chmod(path, mode_t(permissions)) != 0 {
            throw LoopError("chmod", code: -errno, context: path)
        }
    }
}

extension LoopError {
    /// `path` is empty or longer than a Unix socket address holds
    /// (``Code/invalidArgument``).
    static func invalidUnixPath(_ path: String, operation: String) -> LoopError {
        LoopError(operation, code: UV_EINVAL.rawValue, context: "\"\(path)\" (a Unix socket path has 1 to \(UnixSocketFile.maximumPathLength) bytes)")
    }
}
