// Sources/ComposeConfiguration/ComposeConfiguration.docc/ComposeConfiguration.md:
// an app that reads a JSON configuration file too.

import ComposeApp
import ComposeTesting
import Foundation
import Testing
import ComposeConfiguration

extension NotesServer: StartupComponent {
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(environmentPrefix: "NOTES", fileFormat: .json))
    }
}

struct NotesServer: Component {
    let port: Int
    let host: String

    init() {
        port = Application.config.int(forKey: "port", default: 8080)
        host = Application.config.string(forKey: "http.host", default: "127.0.0.1")
    }

    var observers: Void { None }
}

@MainActor
@Test func theNotesServerReadsItsJSONFile() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    try #"{"port": 7070, "http": {"host": "::1"}}"#.write(toFile: file, atomically: true, encoding: .utf8)

    let app = TestApp(NotesServer.self, config: ["config": .string(file)])
    #expect(app.root(as: NotesServer.self)?.port == 7070)
    #expect(app.root(as: NotesServer.self)?.host == "::1")
    #expect(app.run { Application.config.reader.scoped(to: "http").string(forKey: "host") } == "::1")
}
