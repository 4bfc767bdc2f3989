internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// The datagram socket notifications go out on, and the service manager's
/// address (`$NOTIFY_SOCKET`): a path, or an abstract name written with a
/// leading `@`.
///
/// Non-blocking: a send that would block fails with `EAGAIN` and the
/// notification is lost rather than stall the loop (systemd reads its
/// socket promptly; a full queue means it is not listening anyway).
final class NotifySocket {
    private let descriptor: Int32
    private var address = sockaddr_un()
    private let addressLength: socklen_t
    /// The address as `$NOTIFY_SOCKET` wrote it, for messages.
    let name: String

    /// Opens a socket for `name`.
    ///
    /// - Throws: ``LoopError`` when `name` is neither an absolute path nor
    ///   an `@` name (`EAFNOSUPPORT`; systemd's `vsock:` addresses are not
    ///   supported), is too long for a Unix address (`ENAMETOOLONG`), or the
    ///   socket cannot be made.
    init(name: String) throws(LoopError) {
        self.name = name
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        guard abstract || bytes.first == UInt8(ascii: "/") else {
            throw LoopError("NOTIFY_SOCKET", errno: EAFNOSUPPORT, context: name)
        }
        // An abstract name starts with a zero byte instead of the `@`.
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs room for its terminating zero; a name does not.
        guard bytes.count + (abstract ? 0 : 1) <= capacity, bytes.count > 1 else {
            throw LoopError("NOTIFY_SOCKET", errno: ENAMETOOLONG, context: name)
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        addressLength = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        descriptor = socket(AF_UNIX, type, 0)
        guard descriptor >= 0 else { throw LoopError("socket", errno: errno, context: name) }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `message` as one datagram.
    ///
    /// - Throws: ``LoopError`` for `sendto`'s error (`ENOENT` or
    ///   `ECONNREFUSED` when nothing listens at the address, `EAGAIN` when
    ///   its queue is full).
    func send(_ message: String) throws(LoopError) {
        var text = message
        while true {
            let sent = text.withUTF8 { bytes in
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                        sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, addressLength)
                    }
                }
            }
            if sent >= 0 { return }
            if errno != EINTR { throw LoopError("sendto", errno: errno, context: name) }
        }
    }
}
