import Compose
internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// The notify socket a workers-mode parent gives its workers as their
/// `$NOTIFY_SOCKET`, so that it learns when each is ready (see
/// ``WorkerReadiness``): a datagram socket at a fresh abstract name
/// (`@compose-workers-<parent pid>-<random>`), read on the parent's loop.
///
/// Workers are the app as usual: their runtime sends `READY=1`,
/// `RELOADING=1`, `STOPPING=1` and `EXTEND_TIMEOUT_USEC=` to it as it
/// would to systemd. The kernel attaches each sender's credentials
/// (`SO_PASSCRED`), so a datagram is attributed to a worker by its process
/// ID, never by what it says, and one from any other process (an abstract
/// name has no file permissions) is dropped.
///
/// Limits: a datagram longer than ``maximumSize`` (systemd's own limit) is
/// dropped; at most ``maximumPerWake`` are read each time the loop finds
/// the socket readable, so that a flood cannot starve the loop.
@MainActor
final class WorkerNotifyChannel {
    /// The largest notification read, in bytes.
    static let maximumSize = 4096
    /// The most notifications read per loop iteration.
    static let maximumPerWake = 64

    /// `$NOTIFY_SOCKET` for the workers: `@` and the abstract name.
    let address: String
    private let descriptor: Int32
    private var poll: PollHandle?
    /// How many datagrams were dropped (too long, or from no worker).
    private(set) var droppedCount = 0

    /// Binds the socket and starts reading it on `loop`; `receive` gets
    /// each datagram with its sender's process ID (0 if the kernel did not
    /// say). The socket does not keep the loop alive.
    ///
    /// - Throws: ``LoopError`` when the socket cannot be made, bound or
    ///   watched.
    init(loop: EventLoop, receive: @escaping @MainActor (_ pid: Int32, _ datagram: [UInt8]) -> Void) throws(LoopError) {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw LoopError("socket", errno: errno, context: "workers' notify socket") }
        var on: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            let error = LoopError("setsockopt(SO_PASSCRED)", errno: errno, context: "workers' notify socket")
            Glibc.close(fd)
            throw error
        }
        var bound: String?
        var failure = EADDRINUSE
        // A name another process took (by chance or on purpose) is skipped.
        for _ in 0..<8 where bound == nil {
            let name = "compose-workers-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
            if Self.bind(fd, abstractName: name) == 0 {
                bound = name
            } else {
                failure = errno
                if failure != EADDRINUSE { break }
            }
        }
        guard let bound else {
            Glibc.close(fd)
            throw LoopError("bind", errno: failure, context: "workers' notify socket")
        }
        address = "@" + bound
        descriptor = fd
        poll = try PollHandle.watching(ownedDescriptor: fd, on: loop) { [unowned self] in self.readable(receive) }
    }

    /// Stops reading and closes the socket.
    func close() {
        poll?.close()
        poll = nil
    }

    private func readable(_ receive: @MainActor (Int32, [UInt8]) -> Void) {
        var buffer = [UInt8](repeating: 0, count: Self.maximumSize)
        for _ in 0..<Self.maximumPerWake {
            var pid: Int32 = 0
            let count = buffer.withUnsafeMutableBytes { compose_receive_with_sender(descriptor, $0.baseAddress, $0.count, &pid) }
            if count < 0 {
                if errno == EMSGSIZE {
                    droppedCount += 1
                    continue
                }
                // EAGAIN: none left; anything else: try at the next wake.
                return
            }
            receive(pid, Array(buffer[0..<count]))
        }
    }

    /// Counts a datagram the parent could not attribute to a worker.
    func dropped() {
        droppedCount += 1
    }

    private static func bind(_ fd: Int32, abstractName name: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // An abstract name starts with a zero byte and has no terminator.
        let bytes = [0] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        }
    }
}
