import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking connection to an app's inspection socket: request lines out,
/// reply lines in (docs/inspection-protocol.md).
final class InspectionClient {
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []

    /// Connects to the socket at `path`; reads give up after `timeout`
    /// seconds (`nil`: never).
    init(path: String, timeout: Double?) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw InspectError("Cannot make a socket: \(String(cString: strerror(errno))).") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path) - 1
        guard path.utf8.count <= capacity else {
            close(fd)
            throw InspectError("The socket path \(path) is longer than \(capacity) bytes.")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8)
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw InspectError("Cannot connect to \(path): \(String(cString: strerror(error))) (the app may have just exited).")
        }
        setTimeout(timeout)
    }

    deinit {
        close(fd)
    }

    /// Sets how long a read may wait (`nil`: for ever).
    func setTimeout(_ seconds: Double?) {
        var value = timeval()
        if let seconds {
            value.tv_sec = Int(seconds)
            value.tv_usec = Int((seconds - Double(Int(seconds))) * 1_000_000)
        }
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends `request` and a newline.
    func send(_ request: String) throws {
        var bytes = Array((request + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw InspectError("Cannot write to \(path): \(String(cString: strerror(errno))).") }
            offset += written
        }
    }

    /// The next line, without its newline; `nil` when the app closed the
    /// connection.
    ///
    /// - Throws: ``InspectError`` when the read fails or times out.
    func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw InspectError("The app did not answer in time (\(path)).")
            }
            guard count >= 0 else { throw InspectError("Cannot read from \(path): \(String(cString: strerror(errno))).") }
            if count == 0 {
                guard !buffer.isEmpty else { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer = []
                return line
            }
            buffer += chunk[..<count]
        }
    }

    /// Sends `request` and returns the one reply line.
    func ask(_ request: String) throws -> String {
        try send(request)
        guard let line = try readLine() else { throw InspectError("The app closed the connection without answering (\(path)).") }
        return line
    }
}
