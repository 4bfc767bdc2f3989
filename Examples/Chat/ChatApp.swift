// A TCP chat daemon written with Compose: `make run` starts it.
//
//   nc 127.0.0.1 7070
//
// Over TLS, with a certificate chain and its key (PEM files):
//
//   swift run ComposeChat --tls-cert cert.pem --tls-key key.pem
//   openssl s_client -connect 127.0.0.1:7070 -quiet
//
// The tree:
//
//   ChatApp
//   └── server: ChatServerComponent        listener, SIGHUP, sessions
//       └── sessions: InstanceComponent     one per connection
//           └── 1, 2, ...: SessionComponent router: naming → lobby → room
//
// Shutdown (Ctrl-C or SIGTERM) drains: the listener closes first (new
// clients are refused), every session says goodbye and closes its
// connection (willDrain, in SessionComponent), and once they have closed
// (or the drain timeout passed) the tree is destroyed and the daemon
// exits 0.
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
    // Goodbyes are each session's (SessionComponent, willDrain).
    var observers: Void {
        if let metricsPort {
            metrics.add { MetricsEndpoint(host: server.settings.host, port: metricsPort) }
        }
    }
}

extension ChatApp: StartupComponent {
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ChatSettings.options)
    }
}
