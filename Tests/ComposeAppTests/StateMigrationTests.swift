import ComposeApp
import ComposePersistence
import ComposeTesting
import Testing

/// Version 2 of a persisted state: version 1 called `fontSize` "size" and
/// had no theme.
struct FontSettings: Equatable, VersionedState {
    var fontSize = 12
    var theme = "dark"

    static let stateVersion = 2

    static func migrate(_ state: JSONValue, from version: Int) throws -> JSONValue {
        var state = state
        if version < 2 {
            state["fontSize"] = state["size"]
            state["size"] = nil
            state["theme"] = "light"
        }
        return state
    }
}

/// Versioned envelopes and the migration hook.
@MainActor
@Suite struct StateMigrationTests {
    /// The JSON back end installed from the start: these tests talk to it
    /// directly (`restore`, `stateDidChange`), with no store to install it.
    static let persisting = StartupConfiguration(statePersistence: .json())

    static func restore<State: Codable>(_ type: State.Type, in app: TestApp) -> State? {
        app.run { app.context.statePersistence?.restore(type, key: "settings") }
    }

    @Test func anOlderVersionIsMigratedWhenRestored() {
        let app = TestApp(root: Idle(), configuration: Self.persisting) { app in
            app.stateStorage.seed(json: #"{"version":1,"state":{"size":14}}"#, key: "settings")
        }
        #expect(Self.restore(FontSettings.self, in: app) == FontSettings(fontSize: 14, theme: "light"))
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aMigratedStateIsSavedAsTheCurrentVersion() throws {
        let app = TestApp(root: Idle(), configuration: Self.persisting) { app in
            app.stateStorage.seed(json: #"{"version":1,"state":{"size":14}}"#, key: "settings")
        }
        var settings = try #require(Self.restore(FontSettings.self, in: app))
        settings.fontSize = 16
        app.run { app.context.statePersistence?.stateDidChange(settings, key: "settings") }
        app.flushState()
        let json = try #require(app.stateStorage.json(key: "settings"))
        #expect(json.hasPrefix(#"{"version":2,"state":{"#))
        #expect(app.stateStorage.state(FontSettings.self, key: "settings") == FontSettings(fontSize: 16, theme: "light"))
    }

    @Test func aNewerVersionIsMovedAsideNeverOverwritten() throws {
        let json = #"{"version":3,"state":{"fontSize":20,"theme":"dark","density":2}}"#
        let app = TestApp(root: Idle(), configuration: Self.persisting) { $0.stateStorage.seed(json: json, key: "settings") }
        #expect(Self.restore(FontSettings.self, in: app) == nil)
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.code == .stateUnreadable)
        #expect(diagnostic.message.contains("saved as version 3 by a newer version of the app (this one reads up to version 2)"))
        #expect(app.stateStorage.movedAside.map(\.bytes) == [Array(json.utf8)])
    }

    @Test func anOlderVersionOfAPlainStateIsUnreadable() throws {
        let app = TestApp(root: Idle(), configuration: Self.persisting) { app in
            app.stateStorage.seed(json: #"{"version":0,"state":{"count":1}}"#, key: "settings")
        }
        #expect(Self.restore(Tally.self, in: app) == nil)
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.message.contains("not a VersionedState"))
    }

    @Test func aMigrationThatThrowsMovesTheStateAside() throws {
        struct Strict: VersionedState, Equatable {
            struct Refused: Error {}
            var value = 0
            static let stateVersion = 2
            static func migrate(_ state: JSONValue, from version: Int) throws -> JSONValue { throw Refused() }
        }
        let app = TestApp(root: Idle(), configuration: Self.persisting) { app in
            app.stateStorage.seed(json: #"{"version":1,"state":{"value":1}}"#, key: "settings")
        }
        #expect(Self.restore(Strict.self, in: app) == nil)
        #expect(app.diagnostics.map(\.code) == [.stateUnreadable])
        #expect(app.stateStorage.movedAside.count == 1)
    }

    @Test func jsonValuesRoundTripAndEdit() throws {
        var value: JSONValue = ["size": 12, "ratio": 1.5, "tags": ["a", nil, true], "nested": ["deep": "yes"]]
        value["size"] = nil
        value["name"] = "x"
        #expect(value["tags"]?[1] == .null)
        #expect(value["tags"]?[3] == nil)
        #expect(value["nested"]?["deep"] == "yes")
        let bytes = try StateEnvelope.encode(value)
        #expect(try StateEnvelope.decode(JSONValue.self, from: bytes) == value)
    }
}
