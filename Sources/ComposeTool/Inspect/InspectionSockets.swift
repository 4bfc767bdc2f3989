import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A running app's inspection socket, as its file name tells:
/// `<name>.<pid>.sock` in the inspection directory.
struct AppSocket: Equatable {
    let name: String
    let pid: Int32
    let path: String
}

/// Finds the apps' inspection sockets and checks that they are safe to
/// talk to: the directory and the socket must be the user's own, and no
/// one else's to read or write (a socket another user could have put there
/// would get the client's requests, and answer what it likes).
enum InspectionSockets {
    /// The directory: `override`, else `$XDG_RUNTIME_DIR/compose` (when that
    /// is an absolute path), else `/tmp/compose-<uid>`, as the apps use.
    static func directory(override: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let override { return override }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/compose"
        }
        return "/tmp/compose-\(geteuid())"
    }

    /// The apps whose sockets are in `directory` and whose process is
    /// alive, by pid. An empty list when the directory does not exist.
    ///
    /// - Throws: ``InspectError`` when the directory is not safe, or cannot
    ///   be read (another user's: "Permission denied"), which is not the
    ///   same as no app running.
    static func list(in directory: String) throws -> [AppSocket] {
        var info = stat()
        if lstat(directory, &info) != 0 {
            if errno == ENOENT { return [] }
            throw InspectError("Cannot read \(directory): \(String(cString: strerror(errno))).")
        }
        try checkDirectory(directory)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw InspectError("Cannot list \(directory): \((error as NSError).localizedDescription)")
        }
        return names.compactMap { name -> AppSocket? in
            guard let (app, pid) = parse(socketName: name), isAlive(pid) else { return nil }
            return AppSocket(name: app, pid: pid, path: directory + "/" + name)
        }.sorted { $0.pid < $1.pid }
    }

    /// The socket of the app `target` names: a pid, or an app name (which
    /// must name one app only).
    ///
    /// - Throws: ``InspectError`` when no app or several match, or the
    ///   directory or socket is not safe.
    static func find(_ target: String, in directory: String) throws -> AppSocket {
        let apps = try list(in: directory)
        let matches: [AppSocket]
        if let pid = Int32(target) {
            matches = apps.filter { $0.pid == pid }
        } else {
            let exact = apps.filter { $0.name == target }
            matches = exact.isEmpty ? apps.filter { $0.name.lowercased() == target.lowercased() } : exact
        }
        guard let app = matches.first else {
            let running = apps.isEmpty ? "no app is inspectable" : "inspectable: " + apps.map { "\($0.name) (\($0.pid))" }.joined(separator: ", ")
            throw InspectError("No running Compose app \(Int32(target) == nil ? "named" : "with pid") \(target) in \(directory); \(running).")
        }
        guard matches.count == 1 else {
            throw InspectError("\(matches.count) apps are named \(target): give a pid instead (\(matches.map { String($0.pid) }.joined(separator: ", "))).")
        }
        try checkSocket(app.path)
        return app
    }

    /// The app name and pid of `<name>.<pid>.sock`.
    static func parse(socketName: String) -> (name: String, pid: Int32)? {
        guard socketName.hasSuffix(".sock") else { return nil }
        let stem = socketName.dropLast(".sock".count)
        guard let dot = stem.lastIndex(of: "."), let pid = Int32(stem[stem.index(after: dot)...]), pid > 0 else { return nil }
        let name = stem[..<dot]
        return name.isEmpty ? nil : (String(name), pid)
    }

    /// Refuses a directory that is not a real directory of this user with
    /// mode 0700.
    static func checkDirectory(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw InspectError("Cannot read \(path): \(String(cString: strerror(errno))).") }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw InspectError("Refusing \(path): it is not a directory (a symbolic link or another file).")
        }
        guard info.st_uid == geteuid() else {
            throw InspectError("Refusing \(path): it belongs to uid \(info.st_uid), not to you (uid \(geteuid())).")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw InspectError("Refusing \(path): its mode is \(octal(info.st_mode)); it must be 0700 (yours only).")
        }
    }

    /// Refuses a socket that is not this user's or that others may use.
    static func checkSocket(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw InspectError("Cannot read \(path): \(String(cString: strerror(errno))).") }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw InspectError("Refusing \(path): it is not a socket.") }
        guard info.st_uid == geteuid() else {
            throw InspectError("Refusing \(path): it belongs to uid \(info.st_uid), not to you (uid \(geteuid())).")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw InspectError("Refusing \(path): its mode is \(octal(info.st_mode)); it must be 0600 (yours only).")
        }
    }

    private static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode & 0o777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Why `compose inspect` stopped: printed as `Error: ...`, exit status 1.
struct InspectError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
