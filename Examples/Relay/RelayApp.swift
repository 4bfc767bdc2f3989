// A relay daemon written with Compose: each client may run a command and
// gets its output lines back, at the pace the client reads them.
//
//   swift run -c release ComposeRelay --port 7171
//   nc 127.0.0.1 7171        then: run yes | echo hello | stop | stats | quit
//
// The tree:
//
//   RelayApp
//   ├── listener: TCPServer
//   ├── monitor: LatenessMonitor          a 10 ms timer that measures its own lateness
//   └── sessions: InstanceComponent        one per connection
//       └── 1, 2, ...: RelaySession
//           └── command: InstanceComponent at most one running command
//               └── CommandComponent     ChildProcess, output relayed to the client
//
// What keeps it safe from its clients (README, "Flow control and limits"):
// a command's output is relayed with back-pressure (the child is paused
// while the client's send queue is above its high-water mark, so a client
// that never reads costs at most that much memory); a line longer than
// `--max-line` closes the connection with `lineTooLong`; each connection
// reads at most a budget per loop turn, so one flooding client leaves room
// for the others and for timers; every command runs in a process group of
// its own, stopped with its client, at shutdown, or at the forced deadline.
import ComposeApp

@main
struct RelayApp: Component {
    let settings: RelaySettings
    let listener: TCPServer
    let monitor = LatenessMonitor(interval: .milliseconds(10))
    let sessions = InstanceComponent<RelaySession>()

    /// The relay as `swift run ComposeRelay` starts it: settings from the
    /// app's configuration (command line, environment, file; see
    /// RelaySettings).
    init() {
        self.init(settings: RelaySettings(config: Application.config))
    }

    /// The relay with `settings` (a test's).
    init(settings: RelaySettings) {
        self.settings = settings
        listener = TCPServer(host: settings.host, port: settings.port)
    }
}

extension RelayApp {
    var observers: Void {
        listener += { connection in
            connection.maximumLineLength = .bytes(settings.maxLineLength)
            sessions.add { RelaySession(connection: connection, settings: settings, lateness: monitor.samples) }
        }

        sessions.forward(\.connection.didClose) += { id, _ in
            sessions.remove(id)
        }

        listener.errors += { error in
            guard !listener.isListening else { return }
            Application.print("cannot listen: \(error)")
            Application.shutdown(status: 1)
        }

        didAppear += {
            if listener.isListening {
                Application.print("relay listening on \(settings.host):\(listener.port)")
            }
        }
    }
}

extension RelayApp: StartupComponent {
    static var configuration: StartupConfiguration {
        // The deadline is part of what makes the app's context, so it is
        // read before the app's configuration exists: from a configuration
        // of its own over the same layers (flag, variable, default). The
        // root's init() reads it again, so --help lists it and --deadline
        // is not reported as a flag the app did not read.
        let config = AppConfiguration.process(options: RelaySettings.options)
        return StartupConfiguration(
            shutdownDeadline: RelaySettings(config: config).shutdownDeadline,
            config: RelaySettings.options
        )
    }
}
