#if canImport(Glibc)
import Glibc
#endif

/// The system calls behind ``FileStateStorage``, each checked.
extension FileStateStorage {
    /// Opens the directory (`O_DIRECTORY`), creating it and its missing
    /// parents first when `creating` (mode 0700; each new one's parent is
    /// synced so that it survives a crash).
    func openDirectory(creating: Bool) throws(LoopError) -> Int32 {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { return fd }
        guard creating, errno == ENOENT else { throw LoopError("open", errno: errno, context: directory) }
        try makeDirectories()
        let created = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if created < 0 { throw LoopError("open", errno: errno, context: directory) }
        return created
    }

    /// `mkdir -p` of ``directory``.
    private func makeDirectories() throws(LoopError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            let parent = path.isEmpty ? "/" : path
            path += "/" + component
            if mkdir(path, 0o700) == 0 {
                Self.syncDirectory(parent)
            } else if errno != EEXIST {
                throw LoopError("mkdir", errno: errno, context: path)
            }
        }
    }

    /// Syncs a directory's entries, so that a new child survives a crash;
    /// best effort (a failure here leaves nothing inconsistent).
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Everything `fd` holds, read to the end.
    static func readAll(_ fd: Int32, path: String) throws(LoopError) -> [UInt8] {
        var status = stat()
        let expected = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: max(expected, 4096) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if read > 0 {
                count += read
            } else if read == 0 {
                break
            } else if errno != EINTR {
                throw LoopError("read", errno: errno, context: path)
            }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes all of `bytes` to `fd`, however many calls it takes.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(LoopError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if result >= 0 {
                written += result
            } else if errno != EINTR {
                throw LoopError("write", errno: errno, context: path)
            }
        }
    }

    /// Removes `.<name>.<pid>.tmp` files left by processes that died during
    /// a save (the pid is no process any more); best effort.
    func removeStaleTemporaryFiles(of name: String) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        let prefix = "." + name + "."
        var stale: [String] = []
        while let entry = readdir(stream) {
            let file = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
            }
            guard file.hasPrefix(prefix), file.hasSuffix(".tmp") else { continue }
            let pidText = file.dropFirst(prefix.count).dropLast(".tmp".count)
            guard let pid = Int32(pidText), pid != getpid() else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { stale.append(file) }
        }
        for file in stale { unlink(directory + "/" + file) }
    }

    /// Now in UTC as `YYYYMMDDTHHMMSSZ`.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return digits(parts.tm_year + 1900, 4) + digits(parts.tm_mon + 1, 2) + digits(parts.tm_mday, 2)
            + "T" + digits(parts.tm_hour, 2) + digits(parts.tm_min, 2) + digits(parts.tm_sec, 2) + "Z"
    }
}
