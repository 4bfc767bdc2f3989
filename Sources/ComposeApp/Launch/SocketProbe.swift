internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// What an inherited descriptor is: its socket family and type and
/// whether it listens (`getsockopt` `SO_DOMAIN`, `SO_TYPE`,
/// `SO_ACCEPTCONN`).
struct SocketProbe {
    let family: Int32
    let type: Int32
    let isListening: Bool

    /// Probes `fd`; the failure is the `errno` that says why it is no socket
    /// (`EBADF`: not open; `ENOTSOCK`: a file, a pipe, ...).
    static func probe(_ fd: Int32) -> Result<SocketProbe, ProbeFailure> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(ProbeFailure(errno: errno, what: "not an open descriptor")) }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            let what = switch info.st_mode & S_IFMT {
            case S_IFREG: "a regular file"
            case S_IFIFO: "a pipe"
            case S_IFCHR: "a character device"
            case S_IFDIR: "a directory"
            default: "not a socket"
            }
            return .failure(ProbeFailure(errno: ENOTSOCK, what: what))
        }
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &size) == 0 ? value : nil
        }
        guard let family = option(SO_DOMAIN), let type = option(SO_TYPE) else {
            return .failure(ProbeFailure(errno: errno, what: "a socket whose options cannot be read"))
        }
        return .success(SocketProbe(family: family, type: type, isListening: option(SO_ACCEPTCONN) == 1))
    }

    /// Why a descriptor is no socket.
    struct ProbeFailure: Error {
        let errno: Int32
        let what: String
    }

    /// `a UDP (datagram) socket`, `a TCP socket that is not listening`, ...
    var kindDescription: String {
        let family = switch self.family {
        case AF_INET: "IPv4"
        case AF_INET6: "IPv6"
        case AF_UNIX: "Unix"
        default: "family \(self.family)"
        }
        switch type {
        case Int32(SOCK_STREAM.rawValue):
            let name = self.family == AF_UNIX ? "a Unix stream socket" : self.family == AF_INET || self.family == AF_INET6 ? "a TCP (\(family)) socket" : "a \(family) stream socket"
            return isListening ? "\(name), listening" : "\(name) that is not listening"
        case Int32(SOCK_DGRAM.rawValue):
            return self.family == AF_UNIX ? "a Unix datagram socket" : "a UDP (\(family) datagram) socket"
        case Int32(SOCK_SEQPACKET.rawValue):
            return "a \(family) sequenced-packet socket"
        default:
            return "a \(family) socket of type \(type)"
        }
    }

    /// Checks that `socket` is what `expected` asks for.
    ///
    /// - Throws: ``LoopError/Code/inheritedSocketMismatch`` naming the
    ///   descriptor, what it is and what was expected; its ``LoopError/code``
    ///   says why in errno terms (`EBADF`, `ENOTSOCK`, `EAFNOSUPPORT`,
    ///   `EPROTOTYPE`, `EINVAL` for a socket that does not listen).
    static func check(_ socket: InheritedSocket, expected: LaunchState.Expected, server: String) throws(LoopError) {
        let probe: SocketProbe
        switch Self.probe(socket.fd) {
        case .failure(let failure):
            throw LoopError.inheritedSocketMismatch(socket, is: failure.what, expected: expected.text, server: server, errno: failure.errno)
        case .success(let found):
            probe = found
        }
        let error: Int32? = if !expected.families.contains(probe.family) {
            EAFNOSUPPORT
        } else if probe.type != Int32(SOCK_STREAM.rawValue) {
            EPROTOTYPE
        } else if !probe.isListening {
            EINVAL
        } else {
            nil
        }
        if let error {
            throw LoopError.inheritedSocketMismatch(socket, is: probe.kindDescription, expected: expected.text, server: server, errno: error)
        }
    }
}
