/// The runtime's own settings, read from the app's configuration like the
/// app's (flag, environment variable with the app's prefix, file), and so
/// listed by `--help`:
///
/// - `workers` (`--workers 4`): the workers mode (``WorkerOptions``);
/// - `reusePort` (`--reuse-port`): every `TCPServer` binds with
///   `SO_REUSEPORT` (``TCPServer/reusePort``), for copies of the app that
///   another supervisor starts (systemd's `app@.service` instances).
struct RuntimeSettings {
    static let workersKey = WorkerOptions.settingKey
    static let reusePortKey = "reusePort"
    static let descriptions = [
        workersKey: "Run this many copies of the app (workers) sharing its ports, restarted when they die; 0 for one process.",
        reusePortKey: "Share the app's TCP ports with other copies of it (SO_REUSEPORT), such as systemd instances app@1, app@2.",
    ]

    let workers: Int
    let reusePort: Bool

    /// Reads the settings (which records them for `--help`); `workers`
    /// is the app's ``WorkerOptions/count`` when the setting is absent.
    @MainActor init(_ configuration: AppConfiguration, workers: Int) {
        self.workers = max(0, configuration.int(forKey: Self.workersKey, default: workers))
        reusePort = configuration.bool(forKey: Self.reusePortKey, default: false)
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
