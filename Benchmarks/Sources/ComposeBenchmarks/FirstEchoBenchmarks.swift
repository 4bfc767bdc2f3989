import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Start to first echo: from just before spawning an echo server to the
// first byte it echoes on a connection the runner makes as soon as the
// port takes one, measured from outside the process (no server prints
// anything for it): what a supervisor restarting a daemon, or a client
// retrying, waits for. It covers the process's startup, the listening
// socket, the first accept and the first read and write.

enum FirstEchoBenchmarks {
    static let runs = 21
    /// C first (the baseline of every ratio), built with cc (``PlainC``);
    /// EchoSwiftUV is the floor of a Swift program on libuv. Each Swift
    /// server dynamically linked, then with -static-stdlib.
    static let programs = [
        PlainC.echo, "EchoNIO", "EchoSwiftUV", "EchoCompose", "EchoNIOStatic", "EchoSwiftUVStatic", "EchoComposeStatic",
    ]

    /// Milliseconds from spawn to the first echoed byte, median over
    /// `runs` runs of each program, in rotating order.
    static func run() throws -> [String: Double] {
        var samples: [String: [Double]] = [:]
        for run in 0..<runs {
            for offset in programs.indices {
                let name = programs[(run + offset) % programs.count]
                let port = try freePort()
                let runtime = try RuntimeDirectory()
                let server = try Child(name, ["\(port)"], environment: runtime.environment)
                defer { server.terminate() }
                let echoed = try firstEcho(port: port, name: name)
                samples[name, default: []].append(Double(echoed - server.spawnedAt) / 1e6)
            }
        }
        return samples.mapValues(Harness.median)
    }

    /// A port nothing listens on now (the kernel's pick for a socket bound
    /// to port 0, then closed).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildError(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ChildError(description: "bind: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Connects to 127.0.0.1:`port` until it takes the connection (every
    /// 100 µs), writes a byte, reads it back; CLOCK_MONOTONIC then.
    static func firstEcho(port: UInt16, name: String) throws -> UInt64 {
        let deadline = monotonicNanoseconds() + 10_000_000_000
        while true {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw ChildError(description: "socket: errno \(errno)") }
            var address = loopback(port: port)
            let connected = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            if connected {
                defer { close(fd) }
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var byte: UInt8 = 0x2A
                guard write(fd, &byte, 1) == 1, read(fd, &byte, 1) == 1 else {
                    throw ChildError(description: "\(name) accepted but echoed nothing")
                }
                return monotonicNanoseconds()
            }
            close(fd)
            guard monotonicNanoseconds() < deadline else { throw ChildError(description: "\(name) never listened on \(port)") }
            usleep(100)
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
