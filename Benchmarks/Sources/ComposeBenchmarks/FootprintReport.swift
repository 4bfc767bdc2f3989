import Foundation

// The startup and memory sections of the report (docs/footprint.md says
// what the figures mean and which floors stop them).

enum FootprintReport {
    static let labels = [
        PlainC.startup: "C libuv (StartupC built with cc: first 0 ms timer callback)",
        "StartupNIO": "SwiftNIO (StartupNIO: first task on its one event-loop thread)",
        "StartupCompose": "Compose (StartupCompose: root didAppear)",
        "StartupNIOStatic": "SwiftNIO, -static-stdlib (StartupNIOStatic)",
        "StartupComposeStatic": "Compose, -static-stdlib (StartupComposeStatic)",
        PlainC.echo: "C libuv echo server (EchoC built with cc)",
        "EchoNIO": "SwiftNIO echo server, one event-loop thread (EchoNIO)",
        "EchoSwiftUV": "floor: C's echo server in Swift on libuv, no Compose (EchoSwiftUV)",
        "EchoCompose": "Compose echo daemon (EchoCompose)",
        "EchoNIOStatic": "SwiftNIO echo server, -static-stdlib (EchoNIOStatic)",
        "EchoSwiftUVStatic": "floor: EchoSwiftUV, -static-stdlib (EchoSwiftUVStatic)",
        "EchoComposeStatic": "Compose echo daemon, -static-stdlib (EchoComposeStatic)",
        "IdleSwiftStatic": "floor: a Swift program that does nothing, -static-stdlib (IdleSwiftStatic)",
    ]

    static func mebibytes(_ kib: Int) -> String {
        String(format: "%.1f", Double(kib) / 1024)
    }

    static func startup(into targets: inout [Target]) {
        progress("startup")
        do {
            try PlainC.build()
            let times = try StartupBenchmarks.run()
            var costs: [String: StartupCost] = [:]
            let counted = Command.exists("valgrind") && Command.exists("strace") && Command.exists("objcopy")
            if counted {
                for name in StartupBenchmarks.programs {
                    progress("startup, counting \(name)")
                    costs[name] = try StartupCost.measure(name)
                }
            }
            let c = times[PlainC.startup]!
            var table = Table(
                "process start to first callback", "median ms", "ms / C", "instructions", "instructions / C",
                "system calls", "shared objects"
            )
            for name in StartupBenchmarks.programs {
                let time = times[name]!
                let cost = costs[name]
                let instructionRatio = cost.map { Double($0.instructions) / Double(costs[PlainC.startup]!.instructions) }
                table.add(
                    labels[name]!, String(format: "%.2f", time), Format.ratio(time / c),
                    cost.map { Format.count($0.instructions) } ?? Format.none,
                    instructionRatio.map(Format.ratio) ?? Format.none,
                    cost.map { Format.count($0.systemCalls) } ?? Format.none,
                    cost.map { String($0.sharedObjects) } ?? Format.none
                )
                guard name.hasPrefix("StartupCompose") else { continue }
                let variant = name == "StartupCompose" ? "" : " (-static-stdlib)"
                targets.append(Target(
                    description: "startup to didAppear\(variant) ≤ 1.3x the C program's first callback (wall time; needs a quiet machine)",
                    measured: Format.ratio(time / c), passed: time / c <= 1.3
                ))
                if let instructionRatio {
                    targets.append(Target(
                        description: "startup to didAppear\(variant) ≤ 1.3x the C program's first callback (instructions)",
                        measured: Format.ratio(instructionRatio), passed: instructionRatio <= 1.3
                    ))
                }
                // Against SwiftNIO linked the same way.
                if let compose = cost, let nio = costs[name == "StartupCompose" ? "StartupNIO" : "StartupNIOStatic"] {
                    targets.append(Target(
                        description: "startup to didAppear\(variant) ≤ SwiftNIO's to its first task (instructions)",
                        measured: "\(Format.count(compose.instructions)) vs \(Format.count(nio.instructions))",
                        passed: compose.instructions <= nio.instructions
                    ))
                }
            }
            print("## Startup")
            print()
            print(table.markdown)
            print()
            print("Wall time: from the runner's CLOCK_MONOTONIC just before spawning (Foundation")
            print("Process) to the child's CLOCK_MONOTONIC in its first callback, which it prints")
            print("before it exits at once (_exit). Load averages when measured: \(loadAverage);")
            print("wall times mean something on a quiet machine only. Instructions: one run under")
            print("valgrind's callgrind, the dynamic loader included. System calls: one run under")
            print("`strace -f`, every thread's; shared objects: the ones the loader opened.")
            if !counted {
                print("(valgrind, strace or objcopy is missing: no counts.)")
            }
            print("What stops Compose short of C, and the floors: docs/footprint.md.")
            print()
        } catch {
            targets.append(Target(description: "startup measured", measured: "\(error)", passed: false))
        }
        firstEcho(into: &targets)
    }

    /// Start to first echo of the three echo servers (FirstEchoBenchmarks).
    static func firstEcho(into targets: inout [Target]) {
        progress("startup, first echo (~\(FirstEchoBenchmarks.runs * FirstEchoBenchmarks.programs.count / 4) s)")
        do {
            let times = try FirstEchoBenchmarks.run()
            let c = times[PlainC.echo]!
            var table = Table("process start to first echo", "median ms", "ms / C")
            for name in FirstEchoBenchmarks.programs {
                table.add(labels[name]!, String(format: "%.2f", times[name]!), Format.ratio(times[name]! / c))
            }
            print("### Start to first echo")
            print()
            print(table.markdown)
            print()
            print("From the runner's CLOCK_MONOTONIC just before spawning the server (port given)")
            print("to its first echoed byte, on a connection the runner retries every 100 µs")
            print("until the port takes it; median of \(FirstEchoBenchmarks.runs) alternating starts. Load")
            print("averages when measured: \(loadAverage).")
            print()
            // Each linking of the daemon against SwiftNIO's linked the same way.
            for (name, nioName, variant) in [("EchoCompose", "EchoNIO", ""), ("EchoComposeStatic", "EchoNIOStatic", " (-static-stdlib)")] {
                let compose = times[name]!, nio = times[nioName]!
                targets.append(Target(
                    description: "echo daemon\(variant) start to first echo ≤ SwiftNIO's (wall time)",
                    measured: String(format: "%.2f vs %.2f ms", compose, nio), passed: compose <= nio
                ))
                targets.append(Target(
                    description: "echo daemon\(variant) start to first echo ≤ 2.5x C's (wall time)",
                    measured: Format.ratio(compose / c), passed: compose / c <= 2.5
                ))
            }
        } catch {
            targets.append(Target(description: "first echo measured", measured: "\(error)", passed: false))
        }
    }

    static func memory(into targets: inout [Target]) {
        progress("memory (~\(MemoryBenchmarks.rounds * MemoryBenchmarks.programs.count * 2) s)")
        do {
            try PlainC.build()
            let results = try MemoryBenchmarks.run()
            let c = results[PlainC.echo]!
            var table = Table("process", "peak RSS started MiB", "peak RSS after load MiB", "after load / C")
            for name in MemoryBenchmarks.programs {
                let result = results[name]!
                table.add(
                    labels[name]!, mebibytes(result.started), mebibytes(result.loaded),
                    Format.ratio(Double(result.loaded) / Double(c.loaded))
                )
            }
            // Each linking of the daemon against SwiftNIO's linked the same way.
            for (name, nioName, variant) in [("EchoCompose", "EchoNIO", ""), ("EchoComposeStatic", "EchoNIOStatic", " (-static-stdlib)")] {
                let nio = results[nioName]!.loaded
                let peak = results[name]!.loaded
                targets.append(Target(
                    description: "echo daemon\(variant) peak RSS ≤ 8 MiB",
                    measured: "\(mebibytes(peak)) MiB", passed: peak <= 8 * 1024
                ))
                targets.append(Target(
                    description: "echo daemon\(variant) peak RSS ≤ 0.7x SwiftNIO's",
                    measured: "\(Format.ratio(Double(peak) / Double(nio))) (\(mebibytes(peak)) vs \(mebibytes(nio)) MiB)",
                    passed: Double(peak) <= 0.7 * Double(nio)
                ))
            }
            progress("memory, where the pages are")
            let dynamic = try MemoryBenchmarks.breakdown(of: "EchoCompose")
            let linked = try MemoryBenchmarks.breakdown(of: "EchoComposeStatic")
            var breakdown = Table("mapping (Rss summed per file)", "EchoCompose MiB", "EchoComposeStatic MiB")
            let shown = 12
            let names = Array(dynamic.prefix(shown).map(\.mapping)) + linked.prefix(4).map(\.mapping).filter { name in
                !dynamic.prefix(shown).contains { $0.mapping == name }
            }
            func kib(_ mapping: String, in list: [(mapping: String, kib: Int)]) -> Int {
                list.first { $0.mapping == mapping }?.kib ?? 0
            }
            for name in names {
                breakdown.add(name, mebibytes(kib(name, in: dynamic)), mebibytes(kib(name, in: linked)))
            }
            func rest(_ list: [(mapping: String, kib: Int)]) -> Int {
                list.filter { !names.contains($0.mapping) }.reduce(0) { $0 + $1.kib }
            }
            breakdown.add("everything else", mebibytes(rest(dynamic)), mebibytes(rest(linked)))
            breakdown.add("total", mebibytes(dynamic.reduce(0) { $0 + $1.kib }), mebibytes(linked.reduce(0) { $0 + $1.kib }))
            print("## Memory")
            print()
            print(table.markdown)
            print()
            print("Peak RSS: VmHWM in /proc/PID/status once the server printed \"listening\", and")
            print("after \(MemoryBenchmarks.loadDescription) (EchoLoad; none for the floor).")
            print()
            print(breakdown.markdown)
            print()
            print("Where the daemon's resident pages are after the load: `Rss` of every mapping in")
            print("/proc/PID/smaps, summed per file (the executable's own name is its code; the")
            print("shared libraries' pages count in full, as VmRSS counts them). The floors and")
            print("what each line is: docs/footprint.md.")
            print()
        } catch {
            targets.append(Target(description: "memory measured", measured: "\(error)", passed: false))
        }
    }
}
