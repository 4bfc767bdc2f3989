import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Startup: process start to the first callback (the root's didAppear in a
// Compose app, a 0 ms timer in plain C on libuv, the first task on
// SwiftNIO's event loop). Wall time, which a busy
// machine inflates, next to what it does not change: the instructions
// executed (valgrind's callgrind) and the system calls made (strace), each
// program exiting at once in its first callback.

enum StartupBenchmarks {
    static let runs = 21
    /// The contenders: C first (the baseline of every ratio), built with
    /// cc (``PlainC``); SwiftNIO and Compose dynamically linked, then both
    /// with -static-stdlib.
    static let programs = [PlainC.startup, "StartupNIO", "StartupCompose", "StartupNIOStatic", "StartupComposeStatic"]

    /// Milliseconds from just before spawning to the first callback,
    /// median over `runs` runs of each program, in rotating order.
    static func run() throws -> [String: Double] {
        var samples: [String: [Double]] = [:]
        for run in 0..<runs {
            for offset in programs.indices {
                let name = programs[(run + offset) % programs.count]
                let runtime = try RuntimeDirectory()
                let child = try Child(name, environment: runtime.environment)
                let line = try child.expectLine("appeared")
                child.waitForExit()
                guard let appeared = UInt64(line), appeared > child.spawnedAt else {
                    throw ChildError(description: "\(name) printed \"appeared \(line)\"")
                }
                samples[name, default: []].append(Double(appeared - child.spawnedAt) / 1e6)
            }
        }
        return samples.mapValues(Harness.median)
    }
}

/// What a program does before its first callback, counted: the same on a
/// quiet and on a busy machine.
struct StartupCost {
    /// Instructions executed, the dynamic loader's included (callgrind's
    /// "Collected").
    var instructions: Int
    /// System calls made, every thread's.
    var systemCalls: Int
    /// Shared objects the dynamic loader opened.
    var sharedObjects: Int

    /// Counts `name` (an executable of this package): one run under
    /// callgrind, one under strace.
    static func measure(_ name: String) throws -> StartupCost {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("compose-startup-\(getpid())-\(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = Child.directory.appendingPathComponent(name).path
        // This valgrind cannot read the DWARF 5 the Swift toolchain writes:
        // count a copy without debug information (as scripts/instructions.py
        // does). The copy runs from elsewhere, which changes nothing: the
        // executables load nothing relative to their own directory.
        let stripped = directory.appendingPathComponent(name).path
        _ = try Command.run("objcopy", ["--strip-debug", original, stripped])
        let runtime = try RuntimeDirectory()
        let callgrind = try Command.run("valgrind", [
            "--tool=callgrind", "--callgrind-out-file=\(directory.path)/callgrind.out", stripped,
        ], environment: runtime.environment)
        guard let collected = callgrind.error.firstMatch(of: /Collected\s*:\s*(\d+)/), let instructions = Int(collected.1) else {
            throw ChildError(description: "callgrind printed no count for \(name): \(callgrind.error.suffix(1_000))")
        }
        let tracePath = directory.appendingPathComponent("strace.out").path
        _ = try Command.run("strace", ["-f", "-qq", "-o", tracePath, original], environment: runtime.environment)
        let trace = try String(contentsOfFile: tracePath, encoding: .utf8)
        var systemCalls = 0
        var sharedObjects = 0
        for line in trace.split(separator: "\n") {
            // A call interrupted by another thread's shows twice: count its
            // start only. Signals and exits are not calls.
            if line.contains("<... ") || line.contains("--- ") || line.contains("+++ ") { continue }
            systemCalls += 1
            if line.contains("openat("), line.contains(".so"), !line.contains("= -1") { sharedObjects += 1 }
        }
        return StartupCost(instructions: instructions, systemCalls: systemCalls, sharedObjects: sharedObjects)
    }
}

/// A command run to its end, found on PATH.
enum Command {
    struct Output {
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs `name` with `arguments`; its standard output and error go to
    /// files (no pipe to fill), read once it exited.
    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let directory = FileManager.default.temporaryDirectory
        let stdout = directory.appendingPathComponent("compose-bench-\(getpid())-out")
        let stderr = directory.appendingPathComponent("compose-bench-\(getpid())-err")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        process.waitUntilExit()
        let output = Output(
            status: process.terminationStatus,
            output: (try? String(contentsOf: stdout, encoding: .utf8)) ?? "",
            error: (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        )
        guard output.status == 0 else {
            throw ChildError(description: "\(name) \(arguments.joined(separator: " ")) exited with \(output.status): \(output.error.suffix(1_000))")
        }
        return output
    }

    /// Whether `name` is on PATH.
    static func exists(_ name: String) -> Bool {
        (try? run("which", [name])) != nil
    }
}

/// The load averages over 1, 5 and 15 minutes, as /proc/loadavg gives them.
var loadAverage: String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// The C contenders built as a C programmer builds them, `cc -O2 main.c
/// -luv`, next to the runner as `NAME-cc`. SwiftPM links a C executable
/// target with the Swift driver, which adds libswiftCore and libstdc++ to a
/// program that uses neither: 3 MiB more resident and about 3 million
/// instructions of relocations at startup, which are not C's.
enum PlainC {
    static let startup = "StartupC-cc"
    static let echo = "EchoC-cc"

    /// Compiles Sources/StartupC and Sources/EchoC of this package.
    static func build() throws {
        // The runner is in .build/<triple>/release (or another scratch
        // path's): the package is the first directory above with the sources.
        var package = Child.directory
        while !FileManager.default.fileExists(atPath: package.appendingPathComponent("Sources/StartupC/main.c").path) {
            guard package.path != "/" else { throw ChildError(description: "no Sources/StartupC above \(Child.directory.path)") }
            package = package.deletingLastPathComponent()
        }
        for (source, product) in [("StartupC", startup), ("EchoC", echo)] {
            let file = package.appendingPathComponent("Sources/\(source)/main.c").path
            let output = Child.directory.appendingPathComponent(product).path
            _ = try Command.run("cc", ["-O2", "-Wall", "-Wextra", "-o", output, file, "-luv"])
        }
    }
}
