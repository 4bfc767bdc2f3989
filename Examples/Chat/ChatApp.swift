// A TCP chat daemon written with Compose: `make run` starts it.
//
//   nc 127.0.0.1 7070
//
// The tree:
//
//   ChatApp
//   └── server: ChatServerComponent        listener, SIGHUP, sessions
//       └── sessions: InstanceComponent     one per connection
//           └── 1, 2, ...: SessionComponent router: naming → lobby → room
//
// Shutdown (Ctrl-C or SIGTERM): every client is told goodbye, then the
// tree is destroyed, which closes every connection after its goodbye is
// written, and the daemon exits 0.
import ComposeApp
import Foundation

@main
struct ChatApp: Component {
    let server: ChatServerComponent
    /// `GET /metrics`: one endpoint when `--metrics-port` asks for it.
    let metrics = InstanceComponent<MetricsEndpoint>()
    let metricsPort: UInt16?

    /// The daemon as `make run` starts it: settings from the app's
    /// configuration (command line, environment, file; see ChatSettings).
    init() {
        self.init(settings: ChatSettings(config: Application.config))
    }

    /// The daemon with `settings` (a test's).
    init(settings: ChatSettings) {
        let hub = ChatHub(messageOfTheDay: settings.readMessageOfTheDay(), roomCapacity: settings.roomCapacity)
        server = ChatServerComponent(settings: settings, hub: hub)
        metricsPort = settings.metricsPort
    }
}

extension ChatApp {
    var observers: Void {
        if let metricsPort {
            metrics.add { MetricsEndpoint(host: server.settings.host, port: metricsPort) }
        }
        Application.willShutDown += {
            server.hub.broadcastToAll("The server is shutting down. Goodbye!")
        }
    }
}

extension ChatApp: StartupComponent {
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ChatSettings.options)
    }
}
