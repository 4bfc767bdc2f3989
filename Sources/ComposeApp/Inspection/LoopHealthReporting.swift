public import Compose

/// Measures how well an app's loop keeps up, for `compose inspect PID
/// loop` (its `health` section) and the `SIGUSR1` report.
///
/// The inspection server measures nothing itself: an app (or the
/// runtime) that measures loop lag installs a reporter in
/// ``AppContext/loopHealthReporter``, and each `loop` request asks it.
///
/// ```swift
/// final class LagMonitor: LoopHealthReporting {
///     func loopHealthReport() -> LoopHealthReport {
///         LoopHealthReport(window: .seconds(60), lagP50: .milliseconds(1), lagP99: .milliseconds(4), lagMax: .milliseconds(9))
///     }
/// }
/// context.loopHealthReporter = LagMonitor()
/// ```
@MainActor
public protocol LoopHealthReporting: AnyObject {
    /// The figures now. Called on the loop, so it must be quick (no I/O).
    func loopHealthReport() -> LoopHealthReport
}

/// Loop health figures: how late the loop ran what was due (lag), over a
/// recent window, and how busy it was.
public struct LoopHealthReport: Hashable, Sendable {
    /// The span the figures cover (the last minute, say).
    public var window: Duration
    /// The median lag.
    public var lagP50: Duration
    /// The 99th percentile of lag.
    public var lagP99: Duration
    /// The largest lag.
    public var lagMax: Duration
    /// Events the loop handled per second over the window, if measured.
    public var eventsPerSecond: Double?
    /// Other figures, by name, shown as they are (`"turns": "1520"`).
    public var extra: [String: String]

    /// - Parameters:
    ///   - window: The span the figures cover.
    ///   - lagP50: The median lag.
    ///   - lagP99: The 99th percentile of lag.
    ///   - lagMax: The largest lag.
    ///   - eventsPerSecond: Events per second, if measured.
    ///   - extra: Other figures, by name.
    public init(window: Duration, lagP50: Duration, lagP99: Duration, lagMax: Duration, eventsPerSecond: Double? = nil, extra: [String: String] = [:]) {
        self.window = window
        self.lagP50 = lagP50
        self.lagP99 = lagP99
        self.lagMax = lagMax
        self.eventsPerSecond = eventsPerSecond
        self.extra = extra
    }
}

extension AppContext {
    /// What measures the app's loop health for inspection (see
    /// ``LoopHealthReporting``); `nil` (the default) shows the `loop`
    /// report's health section as not measured.
    public var loopHealthReporter: (any LoopHealthReporting)? {
        get { inspection.healthReporter }
        set { inspection.healthReporter = newValue }
    }
}
