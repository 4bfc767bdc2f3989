/// How well an app's event loop keeps up, over the last minute
/// (`AppContext.loopHealth`): how late a timer fired (the loop lag: how
/// long any event waited for a loop busy with something else), how many
/// events it handled, and how busy it was.
///
/// The lag comes from a housekeeping timer of the runtime that fires every
/// ``sampleInterval`` and does not keep the app alive: each firing records
/// how late it came, and a loop blocked for 200 ms shows a lag of about
/// 100 to 200 ms. The figures cover the samples of the last ``window``.
///
/// ```swift
/// if let health = context.loopHealth, health.lagP99 > .milliseconds(50) {
///     context.logger.warning("the loop lags: \(health)")
/// }
/// ```
public struct LoopHealth: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The median lag of the samples in the window.
    public var lagP50: Duration
    /// The lag 99% of the samples stayed under.
    public var lagP99: Duration
    /// The largest lag in the window.
    public var lagMax: Duration
    /// Loop callbacks into the app per second (reads, writes, accepts,
    /// timers, signals, child exits, main-actor tasks), over the window.
    public var eventsPerSecond: Double
    /// The share of the window the loop spent running the app's code
    /// rather than waiting for I/O, 0...1 (libuv's idle time). The loop
    /// measures its idle time from the first time the figures are read
    /// (measuring costs a system call per loop wait), so this covers the
    /// part of the window since then, and is 0 in that first snapshot.
    public var utilization: Double
    /// How much time the samples cover (up to a minute; less just after
    /// the start).
    public var window: Duration
    /// How many lag samples the figures come from.
    public var samples: Int
    /// How often the housekeeping timer samples.
    public var sampleInterval: Duration

    /// Makes a snapshot (the runtime makes them; tests and inspectors may).
    public init(
        lagP50: Duration = .zero,
        lagP99: Duration = .zero,
        lagMax: Duration = .zero,
        eventsPerSecond: Double = 0,
        utilization: Double = 0,
        window: Duration = .zero,
        samples: Int = 0,
        sampleInterval: Duration = .milliseconds(100)
    ) {
        self.lagP50 = lagP50
        self.lagP99 = lagP99
        self.lagMax = lagMax
        self.eventsPerSecond = eventsPerSecond
        self.utilization = utilization
        self.window = window
        self.samples = samples
        self.sampleInterval = sampleInterval
    }

    /// `lag p50 0.1 ms, p99 2.3 ms, max 201.0 ms; 1520 events/s; 12% busy (60 s)`.
    public var description: String {
        "lag p50 \(Self.milliseconds(lagP50)), p99 \(Self.milliseconds(lagP99)), max \(Self.milliseconds(lagMax)); "
            + "\(Int(eventsPerSecond.rounded())) events/s; \(Int((utilization * 100).rounded()))% busy (\(window.components.seconds) s)"
    }

    /// `12.3 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        // Hundredths of a millisecond, rounded to tenths.
        let tenths = (seconds * 100_000 + attoseconds / 10_000_000_000_000 + 5) / 10
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
