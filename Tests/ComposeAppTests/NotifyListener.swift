import Foundation
import Synchronization

/// A Unix datagram socket standing in for systemd's notify socket: bound at
/// a fresh path under /tmp, or at a fresh abstract name, and named as
/// `$NOTIFY_SOCKET` names it (``address``).
///
/// Read it from a test that drives a loop with ``drain()`` (non-blocking);
/// from an async test that waits for a real process, call
/// ``startReading()`` once, then wait on ``datagrams``: a reader thread
/// blocked in `poll(2)` feeds it, one line per datagram with its `\n`s
/// written as `|`, and notes when each one arrived (``arrivals``).
final class NotifyListener: Sendable {
    /// `$NOTIFY_SOCKET`: the path, or `@` and the abstract name.
    let address: String
    /// The datagrams the reader thread received, one line each.
    let datagrams = FixtureOutput()
    private let descriptor: Int32
    private let state = Shared()

    private struct State {
        var arrivals: [(message: String, at: ContinuousClock.Instant)] = []
        var reading = false
        var stopped = false
    }

    /// The state the reader thread shares with the listener.
    private final class Shared: Sendable {
        private let mutex = Mutex(State())

        func withLock<R>(_ body: (inout State) -> R) -> R {
            mutex.withLock { body(&$0) }
        }
    }

    /// Binds a socket at a fresh path (`abstract: false`) or abstract name.
    init(abstract: Bool) throws {
        let name = "compose-notify-\(UUID().uuidString.prefix(8))"
        address = abstract ? "@" + name : "/tmp/\(name).sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LineClient.Failure.socket(errno) }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw LineClient.Failure.socket(error)
        }
        descriptor = fd
    }

    deinit {
        let reading = state.withLock { state in
            state.stopped = true
            return state.reading
        }
        // The reader thread closes the socket when it sees the stop.
        if !reading { close(descriptor) }
        if !address.hasPrefix("@") { unlink(address) }
    }

    /// The datagrams waiting now, in order (without blocking).
    func drain() -> [String] {
        var messages: [String] = []
        while let message = receive(flags: Int32(MSG_DONTWAIT)) { messages.append(message) }
        return messages
    }

    /// Each datagram the reader thread received and when, in order.
    var arrivals: [(message: String, at: ContinuousClock.Instant)] {
        state.withLock { $0.arrivals }
    }

    /// The messages among ``arrivals`` so far.
    var messages: [String] {
        arrivals.map(\.message)
    }

    /// Starts the reader thread (once).
    func startReading() {
        guard state.withLock({ state in
            defer { state.reading = true }
            return !state.reading
        }) else { return }
        let thread = Thread { [descriptor, state, datagrams] in
            while !state.withLock({ $0.stopped }) {
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                // A bounded wait, so that the thread sees the stop.
                guard poll(&request, 1, 50) > 0 else { continue }
                guard let message = Self.receive(descriptor, flags: Int32(MSG_DONTWAIT)) else { continue }
                state.withLock { $0.arrivals.append((message, ContinuousClock.now)) }
                datagrams.receive(Data((message.replacingOccurrences(of: "\n", with: "|") + "\n").utf8))
            }
            close(descriptor)
        }
        thread.name = "NotifyListener reader"
        thread.start()
    }

    private func receive(flags: Int32) -> String? {
        Self.receive(descriptor, flags: flags)
    }

    private static func receive(_ descriptor: Int32, flags: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, flags) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
