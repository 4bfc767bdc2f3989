import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "Running in production": systemd's status line and timeout from
// the app's code (the unit file is in the text).

struct CountingShouter: Component {
    let listener = TCPServer(port: 7070)
    let clients = InstanceComponent<ShoutingClient>()
    var observers: Void {
        listener += { connection in
            clients.add { ShoutingClient(connection: connection) }
            Application.systemd.status = "serving \(clients.count) clients"
        }
        clients.forward(\.connection.didClose) += { id, _ in
            clients.remove(id)
            Application.systemd.status = "serving \(clients.count) clients"
        }
        Application.willShutDown += {
            Application.systemd.status = "saying goodbye to \(clients.count) clients"
            Application.systemd.extendTimeout(by: .seconds(30))
        }
    }
}

@MainActor
@Test func systemdSeesTheStatusLine() throws {
    let app = TestApp(root: CountingShouter(), setUp: { $0.runsUnderSystemd(["WATCHDOG_USEC": "20000000"]) })
    let peer = try app.connect(port: 7070)
    app.advance(by: .seconds(10))            // WatchdogSec=20: a ping every 10 s
    peer.close()
    app.send(.terminate)
    #expect(app.systemdNotifications == [
        "READY=1", "STATUS=serving 1 clients", "WATCHDOG=1", "STATUS=serving 0 clients",
        "STOPPING=1", "STATUS=saying goodbye to 0 clients", "EXTEND_TIMEOUT_USEC=30000000",
    ])
}
