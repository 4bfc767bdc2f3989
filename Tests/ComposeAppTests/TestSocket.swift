import Foundation
import Testing

/// A socket a test makes itself, as a launcher (systemd) would before
/// starting the app: a listening TCP socket on a free port of 127.0.0.1,
/// one that does not listen, a UDP socket, a listening Unix socket.
/// Closed when released.
final class TestSocket: Sendable {
    enum Failure: Error {
        case call(String, Int32)
    }

    let fd: Int32
    /// The TCP or UDP port (0 for a Unix socket).
    let port: UInt16

    private init(fd: Int32, port: UInt16) {
        self.fd = fd
        self.port = port
    }

    deinit {
        close(fd)
    }

    /// A TCP socket bound to a free port of 127.0.0.1, listening unless
    /// `listening` is false.
    static func tcp(listening: Bool = true) throws -> TestSocket {
        try inet(type: SOCK_STREAM, listening: listening)
    }

    /// A UDP socket bound to a free port of 127.0.0.1.
    static func udp() throws -> TestSocket {
        try inet(type: SOCK_DGRAM, listening: false)
    }

    /// A Unix stream socket bound to `path` and listening.
    static func unix(path: String) throws -> TestSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure.call("socket", errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let error = errno
            close(fd)
            throw Failure.call("bind/listen", error)
        }
        return TestSocket(fd: fd, port: 0)
    }

    private static func inet(type: __socket_type, listening: Bool) throws -> TestSocket {
        let fd = socket(AF_INET, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure.call("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && (!listening || listen(fd, 64) == 0) && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let error = errno
            close(fd)
            throw Failure.call("bind/listen", error)
        }
        return TestSocket(fd: fd, port: UInt16(bigEndian: address.sin_port))
    }

    /// A port of 127.0.0.1 that was free a moment ago (bound, then closed):
    /// for a process that binds it itself, such as the workers of the
    /// workers mode, which cannot share port 0.
    static func freePort() throws -> UInt16 {
        try tcp(listening: false).port
    }

    /// Whether the descriptor is still open in this process.
    var isOpen: Bool {
        fcntl(fd, F_GETFD) >= 0
    }

    /// The descriptor as a file handle that does not close it (for a child
    /// process's standard input).
    var fileHandle: FileHandle {
        FileHandle(fileDescriptor: fd, closeOnDealloc: false)
    }
}
