import Foundation
import Testing

/// A TCP client for tests of a server running in another process: a
/// blocking POSIX socket whose input a thread of its own reads into a
/// ``FixtureOutput``, so a test awaits the line it expects (or the end of
/// input) instead of sleeping.
///
/// ```swift
/// let client = try LineClient(port: port)
/// try await client.waitFor("What is your name?")
/// client.send("ada")
/// ```
///
/// The socket is close-on-exec, so a child another test spawns does not hold
/// it open. The reader thread keeps the client alive until the socket's
/// input ends (the server closed it, or ``disconnect()``); the descriptor is
/// closed when the client is released after that.
final class LineClient: Sendable {
    /// What the server sent, line by line; it ends when the server closes
    /// the connection.
    let input = FixtureOutput()
    private let fd: Int32

    enum Failure: Error {
        case socket(Int32)
        case connect(Int32)
        case lineNeverCame(String)
    }

    /// Connects to `host:port` (IPv4) and starts reading.
    init(host: String = "127.0.0.1", port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            Glibc.close(fd)
            throw Failure.connect(error)
        }
        let thread = Thread { [self] in readUntilEnd() }
        thread.name = "LineClient reader"
        thread.start()
    }

    deinit {
        Glibc.close(fd)
    }

    /// Every complete line received so far.
    var lines: [String] { input.lines }

    /// Whether the server closed the connection (or ``disconnect()`` ended it).
    var isClosed: Bool { input.hasEnded }

    /// Sends `line` and a newline. A failure (the server closed the
    /// connection) is ignored: what the test awaits next reveals it.
    func send(_ line: String) {
        RudeClient.send(fd, bytes: Array((line + "\n").utf8))
    }

    /// Waits until the server sent `line` (now or before). Records an issue
    /// and throws if the connection ended or the failure timeout passed.
    func waitFor(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let found = await input.waitForLine(timeout: FixtureProcess.failureTimeout) { $0 == line }
        if !found {
            Issue.record("\"\(line)\" never came; the client received:\n\(input.text)", sourceLocation: sourceLocation)
            throw Failure.lineNeverCame(line)
        }
    }

    /// Waits until at least `count` lines arrived; throws as ``waitFor(_:sourceLocation:)``.
    func waitForLines(count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let found = await input.waitForLines(count: count, timeout: FixtureProcess.failureTimeout)
        if !found {
            Issue.record("\(count) lines never came; the client received:\n\(input.text)", sourceLocation: sourceLocation)
            throw Failure.lineNeverCame("line \(count)")
        }
    }

    /// Waits until the server closes the connection. Returns `false` (and
    /// records an issue) if the failure timeout passed first.
    @discardableResult
    func waitForClose(sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        await input.waitForEnd(timeout: FixtureProcess.failureTimeout)
        if !input.hasEnded {
            Issue.record("The server never closed the connection; the client received:\n\(input.text)", sourceLocation: sourceLocation)
        }
        return input.hasEnded
    }

    /// Ends the connection from this side (both directions).
    func disconnect() {
        shutdown(fd, Int32(SHUT_RDWR))
    }

    private func readUntilEnd() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                input.receive(Data(buffer[0..<count]))
            } else if count < 0, errno == EINTR {
                continue
            } else {
                // End of input, or a reset: either way the connection is over.
                input.receive(Data())
                return
            }
        }
    }
}
