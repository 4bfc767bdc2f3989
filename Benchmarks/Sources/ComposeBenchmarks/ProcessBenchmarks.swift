import Foundation

// The benchmarks that run whole processes: timer lateness and TCP echo
// (startup and memory: StartupBenchmarks.swift, MemoryBenchmarks.swift).
// Each contender is an executable of this package (see Package.swift
// and Children.swift); rounds alternate between contenders, and each
// result is the median over the rounds.

/// The `q` quantile (0...1) of `values`, nearest rank.
func quantile(_ values: [Double], _ q: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((Double(sorted.count) * q).rounded(.down))
    return sorted[min(sorted.count - 1, rank)]
}

// MARK: Timer lateness

struct Lateness {
    /// Microseconds, medians over the rounds of each round's percentile.
    let p50: Double
    let p99: Double
}

enum TimerBenchmarks {
    static let ticks = 2_000
    static let rounds = 7
    /// The first ticks of a run (page faults, first calls) are not counted.
    static let skipped = 10
    static let period: UInt64 = 1_000_000

    /// Runs TimerCompose and TimerC alternately.
    static func run() throws -> (compose: Lateness, c: Lateness) {
        var samples: [String: (p50: [Double], p99: [Double])] = [:]
        for round in 0..<rounds {
            let order = round.isMultiple(of: 2) ? ["TimerCompose", "TimerC"] : ["TimerC", "TimerCompose"]
            for name in order {
                let lateness = try lateness(of: name)
                samples[name, default: ([], [])].p50.append(quantile(lateness, 0.5))
                samples[name, default: ([], [])].p99.append(quantile(lateness, 0.99))
            }
        }
        func result(_ name: String) -> Lateness {
            Lateness(p50: Harness.median(samples[name]!.p50), p99: Harness.median(samples[name]!.p99))
        }
        return (result("TimerCompose"), result("TimerC"))
    }

    /// Each tick's lateness in microseconds: its time minus the time it was
    /// due, the previous tick plus one period. (libuv re-arms a repeating
    /// timer from the loop time at which it fired, so a fixed grid
    /// start + k·period drifts away by every tick's lateness and measures
    /// their sum, not the lateness.)
    static func lateness(of name: String) throws -> [Double] {
        let child = try Child(name, [String(ticks)])
        let fields = try child.expectLine("ticks").split(separator: " ").compactMap { UInt64($0) }
        child.waitForExit()
        guard fields.count == ticks + 1, fields[0] == UInt64(ticks) else {
            throw ChildError(description: "\(name) printed \(fields.count) numbers, expected \(ticks + 1)")
        }
        let times = fields.dropFirst()
        return zip(times.dropLast(), times.dropFirst()).dropFirst(skipped).map { previous, time in
            (Double(time) - Double(previous + period)) / 1_000
        }
    }
}

// MARK: TCP echo

enum EchoServer: String, CaseIterable {
    case compose = "EchoCompose"
    case c = "EchoC"
    case nio = "EchoNIO"

    var label: String {
        switch self {
        case .compose: "Compose"
        case .c: "C libuv"
        case .nio: "SwiftNIO, 1 thread"
        }
    }
}

struct EchoLoad {
    let name: String
    let streaming: Bool
    let connections: Int
    let size: Int

    static let all = [
        EchoLoad(name: "ping-pong 64 B, 1 connection", streaming: false, connections: 1, size: 64),
        EchoLoad(name: "ping-pong 64 B, 50 connections", streaming: false, connections: 50, size: 64),
        EchoLoad(name: "stream 16 KiB writes, 10 connections", streaming: true, connections: 10, size: 16 * 1024),
    ]
}

struct EchoResult {
    /// Messages per second (ping-pong) or bytes per second (stream):
    /// each round's, in round order.
    let rounds: [Double]
    /// Round-trip microseconds (ping-pong only), medians over the rounds.
    let p50: Double
    let p99: Double
    /// Peak resident set size of the server, KiB.
    let peakRSSKiB: Int
    /// The server's CPU time per message (ping-pong: a round trip; stream:
    /// a chunk of the load's size), nanoseconds, in user space and in the
    /// kernel: its CPU time over every round divided by every message it
    /// echoed in them, warm-up included.
    let userNanosecondsPerMessage: Double
    let systemNanosecondsPerMessage: Double

    var throughput: Double { Harness.median(rounds) }

    /// This server's throughput over `other`'s, round by round (the two
    /// ran one after the other in each round): the median and the
    /// extremes. A ratio within a round is steadier than a ratio of the
    /// two medians when the machine's speed drifts between rounds.
    func ratio(to other: EchoResult) -> (median: Double, low: Double, high: Double) {
        let ratios = zip(rounds, other.rounds).map { $0 / $1 }
        return (Harness.median(ratios), ratios.min() ?? .nan, ratios.max() ?? .nan)
    }
}

enum EchoBenchmarks {
    static let rounds = 9
    static let warmupMilliseconds = 300
    static let durationMilliseconds = 1_000

    /// Where the processes run: every server on the first CPU the runner
    /// may use, the load client on the second (none pinned on a machine
    /// with one). See ``CPUAffinity``.
    static let placement: (servers: [Int], client: [Int])? = {
        let cpus = CPUAffinity.available()
        return cpus.count >= 2 ? ([cpus[0]], [cpus[1]]) : nil
    }()

    /// Runs every load against every server. Each load gets fresh servers
    /// (so their peak RSS is that load's), started before its first round
    /// and stopped with SIGTERM after its last.
    static func run(_ load: EchoLoad) throws -> [EchoServer: EchoResult] {
        var children: [EchoServer: Child] = [:]
        defer {
            for child in children.values { child.terminate() }
        }
        var ports: [EchoServer: String] = [:]
        for server in EchoServer.allCases {
            let child = try CPUAffinity.on(placement?.servers) { try Child(server.rawValue, ["0"]) }
            children[server] = child
            ports[server] = try child.expectLine("listening")
        }
        var throughput: [EchoServer: [Double]] = [:]
        var p50: [EchoServer: [Double]] = [:]
        var p99: [EchoServer: [Double]] = [:]
        var messages: [EchoServer: Double] = [:]
        var user: [EchoServer: Double] = [:]
        var system: [EchoServer: Double] = [:]
        let servers = EchoServer.allCases
        for round in 0..<rounds {
            // Rotate the order so that no server always goes first.
            for offset in 0..<servers.count {
                let server = servers[(round + offset) % servers.count]
                let before = children[server]!.cpuSeconds
                let result = try drive(port: ports[server]!, load: load, server: server)
                if let before, let after = children[server]!.cpuSeconds {
                    user[server, default: 0] += after.user - before.user
                    system[server, default: 0] += after.system - before.system
                }
                throughput[server, default: []].append(result.throughput)
                p50[server, default: []].append(result.p50)
                p99[server, default: []].append(result.p99)
                messages[server, default: 0] += result.echoed
            }
        }
        var results: [EchoServer: EchoResult] = [:]
        for server in servers {
            guard let child = children[server], child.process.isRunning, let rss = child.peakRSSKiB else {
                throw ChildError(description: "\(server.rawValue) is no longer running after the load \(load.name)")
            }
            let echoed = max(messages[server] ?? 0, 1)
            results[server] = EchoResult(
                rounds: throughput[server]!,
                p50: Harness.median(p50[server]!), p99: Harness.median(p99[server]!),
                peakRSSKiB: rss,
                userNanosecondsPerMessage: (user[server] ?? 0) * 1e9 / echoed,
                systemNanosecondsPerMessage: (system[server] ?? 0) * 1e9 / echoed
            )
        }
        return results
    }

    /// One round: EchoLoad against one server. `echoed`: messages (or
    /// chunks) echoed in the whole run, warm-up included.
    private static func drive(port: String, load: EchoLoad, server: EchoServer) throws -> (throughput: Double, p50: Double, p99: Double, echoed: Double) {
        let client = try CPUAffinity.on(placement?.client) {
            try Child("EchoLoad", [
                port, load.streaming ? "stream" : "pingpong", String(load.connections), String(load.size),
                String(warmupMilliseconds), String(durationMilliseconds),
            ])
        }
        let line = client.readLine() ?? ""
        let status = client.waitForExit(timeout: .milliseconds(warmupMilliseconds + durationMilliseconds) + .seconds(10))
        var values: [String: Double] = [:]
        for field in line.split(separator: " ") {
            let pair = field.split(separator: "=")
            if pair.count == 2, let value = Double(pair[1]) { values[String(pair[0])] = value }
        }
        guard status == 0, let messages = values["messages"], let bytes = values["bytes"],
              let seconds = values["seconds"], seconds > 0, let p50 = values["p50_us"], let p99 = values["p99_us"],
              let allMessages = values["all_messages"], let allBytes = values["all_bytes"]
        else {
            throw ChildError(description: "EchoLoad against \(server.rawValue) (\(load.name)) failed: \"\(line)\" (run .build/release/EchoLoad by hand to see why)")
        }
        return (
            load.streaming ? bytes / seconds : messages / seconds, p50, p99,
            load.streaming ? allBytes / Double(load.size) : allMessages
        )
    }
}
