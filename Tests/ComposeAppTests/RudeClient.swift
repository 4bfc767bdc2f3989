import Foundation

/// Raw POSIX clients that leave a server in every rude way they can:
/// connect and close at once, reset (`SO_LINGER` 0), close with unread
/// data while the server is still writing. Blocking calls: run them off
/// the cooperative pool with ``onThread(_:)``.
enum RudeClient {
    enum Failure: Error {
        case socket(Int32)
        case connect(Int32)
    }

    /// A connected, close-on-exec TCP socket to 127.0.0.1:`port`.
    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw Failure.connect(error)
        }
        return fd
    }

    /// Closes `fd` with a reset (RST) instead of an orderly FIN.
    static func reset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(fd)
    }

    /// Connects and closes `count` times, each after a random pause of
    /// 0–20 ms (the pause is the subject: the close lands before, during
    /// or after the server's greeting or answer). Every other client says
    /// a line first; every tenth close is a reset. Returns how many
    /// connects failed.
    static func connectThenClose(port: UInt16, count: Int) -> Int {
        var failures = 0
        for index in 0..<count {
            guard let fd = try? connect(port: port) else {
                failures += 1
                continue
            }
            if index % 2 == 1 { send(fd, bytes: Array("hello\n".utf8)) }
            // Real time on purpose: the random pause is the subject (the
            // close lands before, during or after the server's writes).
            usleep(UInt32.random(in: 0...20_000))   // real time: the random pause is the subject
            if index % 10 == 9 { reset(fd) } else { close(fd) }
        }
        return failures
    }

    /// Sends `lines` lines without reading any answer, then closes: the
    /// server's answers hit a closed socket.
    static func sendLinesThenClose(port: UInt16, lines: [String]) throws {
        let fd = try connect(port: port)
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        _ = send(fd, bytes: bytes)
        close(fd)
    }

    /// Sends up to `total` bytes without reading (an echo server answers
    /// every one), then closes with its receive buffer full: the server is
    /// in the middle of writing, and its next write meets a reset.
    /// Returns how many bytes were sent.
    static func sendWithoutReadingThenClose(port: UInt16, total: Int) throws -> Int {
        let fd = try connect(port: port)
        // Once the server stops reading (its queue is full), a blocking send
        // would wait forever: give up after 200 ms without progress.
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
        var sent = 0
        while sent < total {
            let count = send(fd, bytes: chunk)
            sent += count
            if count < chunk.count { break }
        }
        close(fd)
        return sent
    }

    /// Sends `bytes`, no SIGPIPE for the test runner; returns how many went.
    @discardableResult
    static func send(_ fd: Int32, bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { break }
            offset += sent
        }
        return offset
    }

    /// Runs blocking `body` on a thread of its own and returns its result.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
