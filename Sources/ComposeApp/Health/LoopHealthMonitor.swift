internal import CLibUV
import Logging

/// Measures an event loop's health (``LoopHealth``): a housekeeping timer
/// (a ``KernelTimer``, so that the loop's waits carry no timeout for it)
/// that does not keep the loop alive fires every ``interval`` and records
/// how late it came, with the loop's event count and idle time, in a ring
/// of the last minute's samples (bounded memory: 600 samples at the
/// default 100 ms).
///
/// Why a timer's lateness: a loop that runs one long callback (a blocking
/// call, a huge computation) delays every other event by as long; a timer
/// due meanwhile fires that much late. With an interval of 100 ms, a block
/// of 200 ms shows as a lag of at least 100 ms, whenever it starts.
@MainActor
final class LoopHealthMonitor {
    /// How much history the figures cover.
    static let window: Duration = .seconds(60)

    struct Sample {
        /// When the timer fired (`uv_hrtime`, ns).
        var time: UInt64
        /// How late it fired, ns.
        var lateness: UInt64
        /// ``LoopCounters/events`` then.
        var events: UInt64
        /// The loop's idle time then (`uv_metrics_idle_time`, ns).
        var idle: UInt64
    }

    let interval: Duration
    /// Called after each sample with its lateness (ns): the metrics read
    /// the loop's counters there.
    var onSample: (@MainActor (_ lateness: UInt64) -> Void)?
    // Unowned: the loop owns the monitor and closes its timer when it is
    // torn down.
    private unowned let loop: EventLoop
    private var timer: KernelTimer?
    /// When the timer is due (`uv_hrtime`, ns).
    private var due: UInt64 = 0
    private var ring: [Sample]
    private var next = 0
    private var count = 0
    /// The figures at ``start()``, for rates before two samples exist.
    private var origin: Sample
    /// When the loop began to measure its idle time, and that idle time:
    /// at the first ``snapshot``, not at ``start()``. Measuring makes
    /// libuv poll once more (without waiting) before each wait, a system
    /// call per turn that a loop nobody asks about should not pay.
    private var idleOrigin: Sample?

    init(loop: EventLoop, interval: Duration) {
        self.loop = loop
        self.interval = interval
        // In integer nanoseconds, once: dividing one `Duration` by another
        // goes through 128-bit and floating-point conversions that cost
        // thousands of instructions, and their code's pages, at every
        // sample (docs/footprint.md).
        period = max(1, Self.nanoseconds(interval))
        capacity = max(2, Int(Self.nanoseconds(Self.window) / period))
        ring = []
        ring.reserveCapacity(capacity)
        origin = Sample(time: 0, lateness: 0, events: 0, idle: 0)
    }

    /// The interval in nanoseconds.
    private let period: UInt64
    /// How many samples the window holds.
    private let capacity: Int

    /// `duration` in whole nanoseconds (0 for a negative one).
    nonisolated static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }

    /// Starts sampling. The timer never keeps the loop alive.
    func start() throws(LoopError) {
        guard timer == nil else { return }
        let timer = try KernelTimer(loop: loop)
        self.timer = timer
        origin = Sample(time: uv_hrtime(), lateness: 0, events: loop.counters.pointee.events, idle: 0)
        do {
            try arm()
        } catch {
            stop()
            throw error
        }
    }

    /// Stops sampling (the loop is torn down).
    func stop() {
        timer?.close()
        timer = nil
    }

    private func arm() throws(LoopError) {
        guard let timer else { return }
        due = uv_hrtime() + period
        try timer.start(afterNanoseconds: period) { [unowned self] in self.fired() }
    }

    private func fired() {
        let now = uv_hrtime()
        let lateness = now > due ? now - due : 0
        let idle = idleOrigin == nil ? 0 : uv_metrics_idle_time(loop.uv)
        record(Sample(time: now, lateness: lateness, events: loop.counters.pointee.events, idle: idle))
        onSample?(lateness)
        do {
            try arm()
        } catch {
            // Not expected (the timer's file descriptor is open and the
            // period valid); sampling stops, and the figures say so by
            // growing old.
            loop.logger.error("Loop health sampling stopped: \(error)")
            stop()
        }
    }

    /// Adds `sample`, replacing the oldest once the ring is full.
    func record(_ sample: Sample) {
        if ring.count < capacity {
            ring.append(sample)
        } else {
            ring[next] = sample
        }
        next = (next + 1) % capacity
        count = min(count + 1, capacity)
    }

    /// The figures over the samples in the ring.
    var snapshot: LoopHealth {
        var health = LoopHealth(sampleInterval: interval)
        if idleOrigin == nil {
            _ = compose_uv_measure_idle_time(loop.uv)
            idleOrigin = Sample(time: uv_hrtime(), lateness: 0, events: 0, idle: uv_metrics_idle_time(loop.uv))
        }
        guard !ring.isEmpty else { return health }
        let newest = ring[(next + capacity - 1) % capacity]
        // The sample before the oldest in the ring, or the start.
        let oldest = ring.count < capacity ? origin : ring[next]
        let lateness = ring.map(\.lateness).sorted()
        health.samples = lateness.count
        health.lagP50 = .nanoseconds(Int64(Self.percentile(50, of: lateness)))
        health.lagP99 = .nanoseconds(Int64(Self.percentile(99, of: lateness)))
        health.lagMax = .nanoseconds(Int64(lateness.last ?? 0))
        let elapsed = newest.time &- oldest.time
        health.window = .nanoseconds(Int64(elapsed))
        if elapsed > 0 {
            let seconds = Double(elapsed) / 1e9
            health.eventsPerSecond = Double(newest.events &- oldest.events) / seconds
        }
        // Over the part of the window in which the idle time was measured.
        if let idleOrigin {
            let base = oldest.time >= idleOrigin.time ? oldest : idleOrigin
            if newest.time > base.time {
                let idle = Double(newest.idle &- base.idle) / Double(newest.time &- base.time)
                health.utilization = min(1, max(0, 1 - idle))
            }
        }
        return health
    }

    /// The value `percent`% of `sorted` are at or under (nearest rank).
    nonisolated static func percentile(_ percent: Int, of sorted: [UInt64]) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = (percent * sorted.count + 99) / 100
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}

/// The health figures' arithmetic, for tests.
@_spi(Testing)
public enum LoopHealthProbe {
    /// The value `percent`% of `sorted` are at or under (nearest rank).
    public static func percentile(_ percent: Int, of sorted: [UInt64]) -> UInt64 {
        LoopHealthMonitor.percentile(percent, of: sorted)
    }

    /// How long the context's loop would wait for I/O now, in
    /// milliseconds (`uv_backend_timeout`): -1 when nothing is due, so it
    /// would wait without a timeout; `nil` without a loop.
    @MainActor public static func waitTimeout(in context: AppContext) -> Int32? {
        context.eventLoop.map { uv_backend_timeout($0.uv) }
    }
}
