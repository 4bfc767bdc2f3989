import ComposeApp

/// Where the relay listens and what it lets clients run. Each setting comes
/// from the first of: its flag, its environment variable, its default (the
/// app's configuration, `Application.config`; no configuration file, so
/// the relay loads no Foundation):
///
///     ComposeRelay --port 7171 --max-line 65536 --deadline 10
///     RELAY_PORT=7171 RELAY_MAX_LINE=65536 RELAY_DEADLINE=10 ComposeRelay
///
/// `ComposeRelay --help` lists them. A value that does not parse (or a port
/// out of range, a line length or deadline below 1) is ignored (the default
/// stays).
struct RelaySettings: Sendable {
    var host = "127.0.0.1"
    var port: UInt16 = 7171
    /// The longest line a client may send, in bytes; a longer one closes
    /// the connection with `lineTooLong`.
    var maxLineLength = 64 * 1024
    /// How long a graceful shutdown may take before the forced exit.
    var shutdownDeadline: Duration = .seconds(10)
    /// The commands a client may run, by name. Only these: a client names
    /// one, it never gives a command line.
    var commands: [String: [String]] = [
        "yes": ["yes"],
        "date": ["date"],
        "count": ["seq", "1", "100000"],
        // A shell that leaves two background children: stopping it must
        // stop them too (they are in its process group).
        "sleepers": ["sh", "-c", "sleep 3001 & sleep 3002 & wait"],
        // The same, deaf to SIGTERM: only the forced deadline (SIGKILL to
        // the group) ends it.
        "stubborn": ["sh", "-c", "trap '' TERM; sleep 3003 & sleep 3004 & wait"],
    ]
}

extension RelaySettings {
    /// How the relay's configuration is read: variables start with
    /// `RELAY_`, and `--help` says what each setting does.
    static let options = ConfigOptions(
        environmentPrefix: "RELAY",
        descriptions: [
            "host": "The address to listen on.",
            "port": "The TCP port to listen on; 0 picks a free one.",
            "maxLine": "The longest line a client may send, in bytes; a longer one closes that connection.",
            "deadline": "How many seconds a graceful shutdown (SIGINT, SIGTERM) may take before the forced exit.",
        ]
    )

    /// The settings `config` holds; each one it lacks, or that is out of
    /// range, is `defaults`'s.
    init(config: AppConfiguration, defaults: RelaySettings = RelaySettings()) {
        self = defaults
        host = config.string(forKey: "host", default: defaults.host)
        if let port = UInt16(exactly: config.int(forKey: "port", default: Int(defaults.port))) { self.port = port }
        let maxLine = config.int(forKey: "maxLine", default: defaults.maxLineLength)
        if maxLine >= 1 { maxLineLength = maxLine }
        let deadline = config.int(forKey: "deadline", default: Int(defaults.shutdownDeadline.components.seconds))
        if deadline >= 1 { shutdownDeadline = .seconds(deadline) }
    }
}
