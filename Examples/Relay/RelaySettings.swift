import ComposeApp

/// Where the relay listens and what it lets clients run, from flags:
///
///     ComposeRelay --port 7171 --max-line 65536 --deadline 10
///
/// A value that does not parse is ignored (the default stays).
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

    static func fromArguments(_ arguments: [String] = CommandLine.arguments) -> RelaySettings {
        var settings = RelaySettings()
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            let value = rest.popFirst()
            switch flag {
            case "--host": if let value { settings.host = value }
            case "--port": if let port = value.flatMap(UInt16.init) { settings.port = port }
            case "--max-line": if let length = value.flatMap(Int.init), length >= 1 { settings.maxLineLength = length }
            case "--deadline": if let seconds = value.flatMap(Int.init), seconds >= 1 { settings.shutdownDeadline = .seconds(seconds) }
            default: break
            }
        }
        return settings
    }
}
