import ComposeApp
import ComposeConfiguration
import ComposeTesting
import Foundation
import Testing

// Tutorial.md (once the README), "State" chapter, "Configuration" (text proposed to the lead):
// the app reads its settings in its root's init(), acts on a reload, and a
// test gives it in-memory configuration.

@MainActor
final class GreetingText {
    var text: String
    init(_ text: String) { self.text = text }
}

struct Greeter: Component {
    let listener: TCPServer
    let greeting: GreetingText

    init() {
        let config = Application.config          // --port 9000, GREETER_PORT=9000, {"port": 9000}
        listener = TCPServer(port: UInt16(exactly: config.int(forKey: "port", default: 8080)) ?? 8080)
        greeting = GreetingText(config.string(forKey: "greeting", default: "Hello"))
    }

    var observers: Void {
        Application.configurationDidReload += {   // kill -HUP: environment and file read again
            greeting.text = Application.config.string(forKey: "greeting", default: "Hello")
        }
        listener += { connection in
            connection.writeLine(greeting.text)
            connection.close()
        }
    }
}

extension Greeter: StartupComponent {
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(
            environmentPrefix: .appName,          // the default: GREETER_PORT, GREETER_CONFIG
            fileFormat: .json,                    // import ComposeConfiguration
            descriptions: ["port": "The TCP port to listen on."]   // for --help
        ))
    }
}

@MainActor
@Test func theGreeterReadsItsConfigurationAndReloadsIt() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("greeter-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    try #"{"greeting": "Bonjour"}"#.write(toFile: file, atomically: true, encoding: .utf8)

    let app = TestApp(Greeter.self, config: ["port": 9000, "config": .string(file)])
    #expect(try app.connect(port: 9000).readLines() == ["Bonjour"])
    #expect(app.diagnostics.isEmpty)

    try #"{"greeting": "Salut"}"#.write(toFile: file, atomically: true, encoding: .utf8)
    app.send(.hangup)                             // reloads, then configurationDidReload
    #expect(try app.connect(port: 9000).readLines() == ["Salut"])
}
