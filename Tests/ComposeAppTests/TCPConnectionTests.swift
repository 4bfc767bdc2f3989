import ComposeApp
import ComposeTesting
import Testing

/// What a TCPConnection does with the bytes and the closes it sees, and how
/// it follows its component: on a TestApp, with simulated clients (each
/// write arrives as one chunk). What real sockets do: TCPTests.
@MainActor
@Suite struct TCPConnectionTests {
    /// Collects the lines of every connection it accepts.
    struct LineServer: Component {
        let listener = TCPServer(port: 7000)
        let connections = InstanceComponent<LineCollector>()
        let log = LineLog()
        var observers: Void {
            listener += { connection in
                connections.add { LineCollector(connection: connection, log: log) }
            }
        }
    }

    struct LineCollector: Component {
        let connection: TCPConnection
        let log: LineLog
        var observers: Void {
            connection.lines += { log.lines.append($0) }
        }
    }

    @Test func linesSplitOnNewlinesAcrossChunksAndTheLastOneComesAtTheEnd() throws {
        let app = TestApp(root: LineServer())
        let log = try #require(app.root(as: LineServer.self)).log
        let peer = try app.connect(port: 7000)
        peer.write("hel")
        // A line without its newline waits.
        #expect(log.lines == [])
        peer.write("lo\r\nwor")
        #expect(log.lines == ["hello"])
        peer.write("ld\n\nlast")
        #expect(log.lines == ["hello", "world", ""])
        peer.close()
        #expect(log.lines == ["hello", "world", "", "last"])
    }

    @Test func destroyingAConnectionsComponentClosesTheConnection() throws {
        let app = TestApp(root: EchoServer())
        let echo = try #require(app.root(as: EchoServer.self))
        let peer = try app.connect(port: echo.listener.port)
        peer.write("ping")
        #expect(peer.receivedText == "ping")
        let id = try #require(echo.clients.ids.first)

        app.run { echo.clients.remove(id) }
        #expect(peer.isClosedByApp)
        peer.write("anyone?")
        #expect(peer.receivedText == "ping")
        #expect(app.diagnostics.isEmpty)
    }

    @Test func thePeerClosingDestroysTheConnectionsComponent() throws {
        let app = TestApp(root: EchoServer())
        let echo = try #require(app.root(as: EchoServer.self))
        let nodes = app.tree.statistics.nodes
        let peer = try app.connect(port: echo.listener.port)
        #expect(echo.clients.count == 1)
        #expect(app.tree.statistics.nodes == nodes + 1)

        peer.close()
        #expect(echo.clients.count == 0)
        #expect(app.tree.statistics.nodes == nodes)
        #expect(peer.isClosedByApp)
    }

    @Test func aPeerThatResetsIsOneErrorThenTheConnectionClosesAndTheServerGoesOn() throws {
        let app = TestApp(root: EchoServer())
        let echo = try #require(app.root(as: EchoServer.self))
        let victim = try app.connect(port: echo.listener.port)
        let connection = try #require(echo.clients.ids.first.flatMap { echo.clients[$0] }?.connection)
        var errors: [LoopError] = []
        connection.errors += { errors.append($0) }

        victim.reset()
        #expect(errors.map(\.kind) == [.connectionReset])
        // Closed: the server removed the connection's component.
        #expect(echo.clients.count == 0)
        #expect(!connection.isOpen)
        #expect(app.run { connection.write("still there?\n") } == .closed)

        let next = try app.connect(port: echo.listener.port)
        next.write("ping")
        #expect(next.receivedText == "ping")
    }
}
