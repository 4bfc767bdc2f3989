import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The process benchmarks (timer, startup, echo) run the executables of this
// package as child processes, found next to the runner (.build/release).

/// CLOCK_MONOTONIC in nanoseconds: the clock the children print.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

struct ChildError: Error, CustomStringConvertible {
    let description: String
}

/// A running child process whose standard output the runner reads line by
/// line. Its standard error is discarded (Compose logs its shutdown there).
final class Child {
    let name: String
    let process = Process()
    private let output: FileHandle
    private var buffered = Data()
    /// CLOCK_MONOTONIC just before the process was spawned.
    let spawnedAt: UInt64

    /// The directory of the runner, where `swift build` put every product.
    static let directory: URL = {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent()
    }()

    /// Starts `name` (an executable of this package) with `arguments`,
    /// and `environment` added to the runner's.
    init(_ name: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
        self.name = name
        let executable = Self.directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ChildError(description: "\(executable.path) is missing: build every product first (`swift build -c release` in Benchmarks, as `make bench` does)")
        }
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        output = pipe.fileHandleForReading
        spawnedAt = monotonicNanoseconds()
        // Process closes the parent's copy of the pipe's write end, so
        // reading sees end of file when the child exits.
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// The next line of standard output, or `nil` at end of file.
    func readLine() -> String? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered = Data(buffered[buffered.index(after: newline)...])
                return line
            }
            let chunk = output.availableData
            if chunk.isEmpty {
                guard !buffered.isEmpty else { return nil }
                defer { buffered = Data() }
                return String(decoding: buffered, as: UTF8.self)
            }
            buffered.append(chunk)
        }
    }

    /// The next line, which must start with `prefix` (followed by a space);
    /// returns the rest.
    func expectLine(_ prefix: String) throws -> String {
        guard let line = readLine() else {
            throw ChildError(description: "\(name) ended without printing \"\(prefix) ...\" (run .build/release/\(name) by hand to see why)")
        }
        guard line.hasPrefix(prefix + " ") else {
            throw ChildError(description: "\(name) printed \"\(line.prefix(200))\", expected \"\(prefix) ...\"")
        }
        return String(line.dropFirst(prefix.count + 1))
    }

    /// Peak resident set size in KiB (`VmHWM` in /proc/PID/status).
    var peakRSSKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first
    }

    /// The CPU time the process has used so far, in seconds: user and
    /// kernel (`utime` and `stime` of /proc/PID/stat, in clock ticks).
    var cpuSeconds: (user: Double, system: Double)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command name: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user / ticks, system / ticks)
    }

    /// Waits up to `timeout` for the process to exit; kills it (SIGKILL)
    /// past that. Returns its exit status, or `nil` if it had to be killed.
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning, clock.now < deadline {
            usleep(2_000)
        }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends SIGTERM and waits for the exit (SIGKILL after 10 s).
    func terminate() {
        if process.isRunning { kill(pid, SIGTERM) }
        waitForExit()
    }
}

/// Keeps idle CPUs polling instead of halting while the process benchmarks
/// run, through the kernel's PM QoS interface: a 0 µs wake-up latency
/// request on /dev/cpu_dma_latency, in force while the file stays open
/// (root only). On this kind of virtual machine a halted CPU takes tens of
/// microseconds to wake, which would otherwise dominate every round trip
/// and every timer tick, for every contender alike.
enum WakeUpLatency {
    static let path = "/dev/cpu_dma_latency"

    static var isAvailable: Bool { access(path, W_OK) == 0 }

    /// Starts the request; returns its file descriptor, or `nil`.
    static func hold() -> Int32? {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var zero: Int32 = 0
        guard write(fd, &zero, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size else {
            close(fd)
            return nil
        }
        return fd
    }

    static func release(_ fd: Int32?) {
        if let fd { close(fd) }
    }
}

/// A fresh `XDG_RUNTIME_DIR` for the children of one measurement, so that
/// the inspection sockets a Compose child leaves behind (the startup
/// contenders `_exit` in their first callback) are not swept, and logged
/// about, by the next child's startup: each start is then a first start.
final class RuntimeDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("compose-bench-runtime-\(getpid())-\(UInt64.random(in: 0...UInt64.max))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    var environment: [String: String] { ["XDG_RUNTIME_DIR": path] }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
