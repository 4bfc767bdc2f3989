import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Memory: the echo daemon's peak resident set (VmHWM in /proc/PID/status)
// when it has started and after a load, against the C libuv echo server
// and the floor under any Swift program; and where the daemon's resident
// pages are, from /proc/PID/smaps (docs/footprint.md). Page counts, so the
// figures hold on a busy machine.

enum MemoryBenchmarks {
    /// Fresh processes per program; the result is the median.
    static let rounds = 3
    /// The servers: C first (the baseline of every ratio), built with cc
    /// (``PlainC``), then SwiftNIO on one event-loop thread, then the floor
    /// of a Swift program serving TCP on libuv (EchoSwiftUV: C's server in
    /// Swift, no Compose), then the Compose daemon; the three Swift servers
    /// again linked with -static-stdlib. IdleSwiftStatic only waits, and
    /// gets no load.
    static let programs = [
        PlainC.echo, "EchoNIO", "EchoSwiftUV", "EchoCompose",
        "EchoNIOStatic", "EchoSwiftUVStatic", "EchoComposeStatic", "IdleSwiftStatic",
    ]
    /// The load: EchoLoad's arguments after the port.
    static let load = ["pingpong", "50", "64", "200", "1000"]
    static let loadDescription = "ping-pong of 64 B on 50 connections for 1.2 s"

    struct Result {
        /// VmHWM once it printed "listening", KiB.
        let started: Int
        /// VmHWM after the load, KiB.
        let loaded: Int
    }

    /// Every program's peak RSS, started and after the load.
    static func run() throws -> [String: Result] {
        var started: [String: [Double]] = [:]
        var loaded: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for name in programs {
                let (idle, busy) = try measure(name) { _ in }
                started[name, default: []].append(Double(idle))
                loaded[name, default: []].append(Double(busy))
            }
        }
        var results: [String: Result] = [:]
        for name in programs {
            results[name] = Result(started: Int(Harness.median(started[name]!)), loaded: Int(Harness.median(loaded[name]!)))
        }
        return results
    }

    /// Where `name`'s resident pages are after the load: RSS per mapped
    /// file (anonymous mappings as `[anonymous]`, the heap as `[heap]`),
    /// KiB, largest first.
    static func breakdown(of name: String) throws -> [(mapping: String, kib: Int)] {
        var result: [(mapping: String, kib: Int)] = []
        _ = try measure(name) { pid in
            result = residentByMapping(pid: pid)
        }
        return result
    }

    /// Starts `name`, reads its peak RSS, drives the load against it
    /// (unless it is IdleSwiftStatic), reads the peak again, calls
    /// `inspect` with its pid, and stops it.
    private static func measure(_ name: String, inspect: (Int32) throws -> Void) throws -> (started: Int, loaded: Int) {
        let server = try Child(name, ["0"])
        defer { server.terminate() }
        let port = try server.expectLine("listening")
        guard let started = server.peakRSSKiB else { throw ChildError(description: "no VmHWM for \(name)") }
        if name != "IdleSwiftStatic" {
            let client = try Child("EchoLoad", [port] + load)
            let line = client.readLine() ?? ""
            guard client.waitForExit(timeout: .seconds(20)) == 0, line.hasPrefix("messages=") else {
                throw ChildError(description: "EchoLoad against \(name) failed: \"\(line)\"")
            }
        }
        guard let loaded = server.peakRSSKiB else { throw ChildError(description: "\(name) ended during the load") }
        try inspect(server.pid)
        return (started, loaded)
    }

    /// `Rss` of every mapping in /proc/PID/smaps, summed per file.
    static func residentByMapping(pid: Int32) -> [(mapping: String, kib: Int)] {
        // Read to the end of file: String(contentsOfFile:) trusts the size
        // /proc reports and stops early.
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps") else { return [] }
        defer { try? file.close() }
        let smaps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        var totals: [String: Int] = [:]
        var current = "[anonymous]"
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                // A mapping's header: address range, permissions, offset,
                // device, inode, then the path, if any.
                if fields.count >= 6 {
                    let path = fields[5...].joined(separator: " ")
                    current = path.hasPrefix("[") ? path : String(path.split(separator: "/").last ?? Substring(path))
                } else {
                    current = "[anonymous]"
                }
            } else if fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                totals[current, default: 0] += kib
            }
        }
        return totals.filter { $0.value > 0 }.map { (mapping: $0.key, kib: $0.value) }.sorted { $0.kib > $1.kib }
    }
}
