import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "Shutdown": each session says goodbye when the app drains.

struct PoliteServer: Component {
    let listener = TCPServer(port: 7070)
    let sessions = InstanceComponent<PoliteSession>()
    var observers: Void {
        listener += { connection in
            sessions.add { PoliteSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in
            sessions.remove(id)
        }
    }
}

struct PoliteSession: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.lines += { line in connection.writeLine(line.uppercased()) }
        connection.willDrain += {
            connection.writeLine("The server is shutting down. Goodbye!")
            connection.close()
        }
    }
}

@MainActor
@Test func eachSessionSaysGoodbyeWhenTheAppDrains() throws {
    let app = TestApp(root: PoliteServer(), configuration: StartupConfiguration(drainTimeout: .seconds(3)))
    let peer = try app.connect(port: 7070)
    app.send(.terminate)                       // listener closed, each session told
    #expect(peer.readLines() == ["The server is shutting down. Goodbye!"])
    #expect(peer.isClosedByApp)
    #expect(app.exitStatus == 0)               // as soon as the last one closed
    #expect(app.now == .zero)
}
