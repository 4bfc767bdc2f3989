// The Compose contender of the timer-lateness benchmark: a small app whose
// root holds a 1 ms repeating LoopTimer. Each tick's observer records
// CLOCK_MONOTONIC (ns); after the last tick the app prints one line,
//
//     ticks N t1 t2 ... tN
//
// and shuts down. Usage: TimerCompose [N]  (default 2000). The runner
// (ComposeBenchmarks) computes the lateness, exactly as for TimerC.

import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

/// The tick times, preallocated so that recording one is a store.
@MainActor
final class TickLog {
    let wanted: Int
    private(set) var times: [UInt64]

    init(wanted: Int) {
        self.wanted = wanted
        times = []
        times.reserveCapacity(wanted)
    }

    var isComplete: Bool { times.count >= wanted }

    func record() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        times.append(UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))
    }
}

@main
struct TimerApp: StartupComponent {
    static let wanted = CommandLine.arguments.count > 1 ? max(1, Int(CommandLine.arguments[1]) ?? 2000) : 2000

    let tick = LoopTimer(every: .milliseconds(1))
    let log = TickLog(wanted: TimerApp.wanted)

    init() {}

    /// The tick count is the first argument (read above): declared, since
    /// a positional argument nobody declares is a usage error.
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(positionalKeys: ["ticks"]))
    }

    var observers: Void {
        tick += {
            log.record()
            guard log.isComplete else { return }
            tick.stop()
            var line = "ticks \(log.times.count)"
            for time in log.times { line += " \(time)" }
            line += "\n"
            line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
            Application.shutdown()
        }
    }
}
