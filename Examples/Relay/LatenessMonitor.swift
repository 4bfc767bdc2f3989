import ComposeApp

/// A repeating timer that measures how late it fires: the daemon's own
/// health check. Under a flood the loop must still get to its timers; the
/// lateness of this one (time between two fires, minus the interval) shows
/// whether it does. Keeps the last 4,096 samples (bounded memory).
struct LatenessMonitor: Component {
    let timer: LoopTimer
    let samples: LatenessSamples

    init(interval: Duration) {
        timer = LoopTimer(every: interval, keepsLoopAlive: false)
        samples = LatenessSamples(interval: interval)
    }
}

extension LatenessMonitor {
    var observers: Void {
        timer += {
            samples.record(at: Application.clock.now)
        }
    }
}

/// The lateness samples of ``LatenessMonitor``, in microseconds, in a ring.
@MainActor
final class LatenessSamples {
    private let interval: Duration
    private var last: AppClock.Instant?
    private var ring = [Int](repeating: 0, count: 4096)
    private var count = 0

    init(interval: Duration) {
        self.interval = interval
    }

    func record(at now: AppClock.Instant) {
        defer { last = now }
        guard let last else { return }
        let late = max(.zero, last.duration(to: now) - interval)
        let (seconds, attoseconds) = late.components
        ring[count % ring.count] = Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
        count += 1
    }

    /// Forgets every sample (the next fire starts a new series).
    func reset() {
        count = 0
        last = nil
    }

    /// "timer lateness µs: p50 120 p99 900 max 2100 samples 4096".
    func summary() -> String {
        let sorted = ring.prefix(min(count, ring.count)).sorted()
        guard !sorted.isEmpty else { return "timer lateness µs: no samples yet" }
        func percentile(_ p: Int) -> Int { sorted[min(sorted.count - 1, sorted.count * p / 100)] }
        return "timer lateness µs: p50 \(percentile(50)) p99 \(percentile(99)) max \(sorted.last!) samples \(sorted.count)"
    }
}
