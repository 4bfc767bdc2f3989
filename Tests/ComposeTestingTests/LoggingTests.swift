import ComposeApp
import ComposeTesting
import InMemoryLogging
import Logging
import Testing

/// A shop whose front desk listens on a port.
struct Shop: Component {
    let front = FrontDesk()
    var observers: Void { None }
}

struct FrontDesk: Component {
    let listener = TCPServer(port: 8080)
    var observers: Void { None }
}

/// Echoes lines; its connections are logged about when they fail.
struct EchoDesk: Component {
    let listener = TCPServer(port: 8080)
    let clients = InstanceComponent<ShoutClient>()
    var observers: Void {
        listener += { connection in clients.add { ShoutClient(connection: connection) } }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

@MainActor
@Suite struct LoggingTests {
    /// The configuration's handler, at `level`, and what it collected.
    func configuration(level: Logger.Level = .info) -> (StartupConfiguration, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = level
        let captured = handler
        return (StartupConfiguration(makeLogHandler: { _ in captured }), handler)
    }

    @Test func aResourcesErrorIsLoggedOnceWithItsComponentsPath() throws {
        let (configuration, log) = configuration()
        let app = TestApp(root: Shop(), configuration: configuration) { app in app.occupy(port: 8080) }
        let errors = log.entries.filter { $0.level == .error }
        #expect(errors.count == 1)
        let entry = try #require(errors.first)
        #expect(entry.metadata["component"] == "shop.front")
        #expect("\(entry.message)".contains("127.0.0.1:8080"))
        #expect("\(entry.message)".contains("EADDRINUSE"))
        _ = app
    }

    @Test func aPeerResetIsLoggedOnceAtDebugLevelWithItsComponentsPath() throws {
        let (configuration, log) = configuration(level: .debug)
        let app = TestApp(root: EchoDesk(), configuration: configuration)
        let peer = try app.connect(port: 8080)
        _ = peer.readLines()
        peer.reset()
        let lines = log.entries.filter { "\($0.message)".contains("ECONNRESET") }
        #expect(lines.map(\.level) == [.debug])
        #expect(lines.first?.metadata["component"].map { "\($0)" }?.hasPrefix("echoDesk.clients") == true)
    }

    @Test func diagnosticsAreLoggedWithThePathTheyConcern() throws {
        let (configuration, log) = configuration()
        let app = TestApp(root: Shop(), configuration: configuration)
        app.run { app.context.report(Diagnostic(.noRunningApp, "a test diagnostic", path: "shop.front")) }
        let warning = try #require(log.entries.last)
        #expect(warning.level == .warning)
        #expect(warning.metadata["component"] == "shop.front")
    }
}
