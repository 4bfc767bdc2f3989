/// The runtime's own settings, read from the app's configuration like the
/// app's (flag, environment variable with the app's prefix, file), and so
/// listed by `--help`:
///
/// - `workers` (`--workers 4`): the workers mode (``WorkerOptions``);
/// - `reusePort` (`--reuse-port`): every `TCPServer` binds with
///   `SO_REUSEPORT` (``TCPServer/reusePort``), for copies of the app that
///   another supervisor starts (systemd's `app@.service` instances);
/// - `busyPollMicroseconds` (`--busy-poll-microseconds 50`): how long the
///   loop polls without waiting after each input
///   (``StartupConfiguration/busyPolling``), 0 to 10,000.
struct RuntimeSettings {
    static let workersKey = WorkerOptions.settingKey
    static let reusePortKey = "reusePort"
    static let busyPollKey = "busyPollMicroseconds"
    /// The longest busy-polling window a setting may ask for: 10 ms.
    static let busyPollLimit = 10_000
    static let descriptions = [
        workersKey: "Run this many copies of the app (workers) sharing its ports, restarted when they die; 0 for one process.",
        reusePortKey: "Share the app's TCP ports with other copies of it (SO_REUSEPORT), such as systemd instances app@1, app@2.",
        busyPollKey: "Poll for I/O this many microseconds after each read before sleeping (0 to 10000): CPU for fewer wake-ups under load.",
    ]

    let workers: Int
    let reusePort: Bool
    /// The busy-polling window, in range: 0 to ``busyPollLimit``
    /// microseconds.
    let busyPolling: Duration

    /// Reads the settings (which records them for `--help`); `workers`
    /// is the app's ``WorkerOptions/count`` when the setting is absent,
    /// `busyPolling` the app's ``StartupConfiguration/busyPolling``. A
    /// window out of range is reported (``Diagnostic/Code/settingOutOfRange``)
    /// and the nearest one in range used.
    @MainActor init(_ configuration: AppConfiguration, workers: Int, busyPolling: Duration = .zero) {
        self.workers = max(0, configuration.int(forKey: Self.workersKey, default: workers))
        reusePort = configuration.bool(forKey: Self.reusePortKey, default: false)
        let (seconds, attoseconds) = busyPolling.components
        // Saturating: `.seconds(.max)` is above the limit (reported, 10 ms
        // used), not a product wrapped to -1,000,000 (reported, 0 used).
        let (whole, overflows) = Int(clamping: seconds).multipliedReportingOverflow(by: 1_000_000)
        let (sum, carries) = whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000_000))
        let defaultMicroseconds = overflows || carries ? (seconds < 0 ? Int.min : Int.max) : sum
        let asked = configuration.int(forKey: Self.busyPollKey, default: defaultMicroseconds)
        let microseconds = min(max(asked, 0), Self.busyPollLimit)
        if microseconds != asked {
            configuration.report(Diagnostic(.settingOutOfRange,
                "\(Self.busyPollKey) is \(asked); it must be 0 (off) to \(Self.busyPollLimit) (10 ms): \(microseconds) is used."))
        }
        self.busyPolling = .microseconds(microseconds)
    }
}

extension StartupConfiguration {
    /// The configuration with `--help` descriptions of the runtime's
    /// settings, unless the app gave its own.
    func describingRuntimeSettings() -> StartupConfiguration {
        var copy = self
        for (key, text) in RuntimeSettings.descriptions where copy.config.descriptions[key] == nil {
            copy.config.descriptions[key] = text
        }
        return copy
    }
}
