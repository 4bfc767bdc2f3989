@testable import ComposeApp
import ComposeTesting
import Foundation
import Testing

/// A file in the temporary directory, removed when released.
final class TemporaryFile {
    let path: String

    init(_ text: String, extension suffix: String = "json") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("compose-config-\(UUID().uuidString).\(suffix)").path
        try write(text)
    }

    func write(_ text: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// What a `ConfiguredApp` saw each time its configuration was reloaded.
@MainActor
final class ReloadJournal {
    var greetings: [String] = []
}

/// A service that reads the app's configuration when it is made and when
/// it starts.
@MainActor
final class GreetingService: ServiceLifecycle {
    let port: Int
    var greetingAtStart: String?

    init(port: Int) {
        self.port = port
    }

    func start() async throws {
        greetingAtStart = Application.config.string(forKey: "greeting")
    }
}

/// A root with nothing in it.
struct Bare: Component {
    var observers: Void { None }
}

/// An app that reads its settings in its root's `init()` and again on each
/// reload.
struct ConfiguredApp: StartupComponent {
    let greeting: String
    let port: Int
    let journal = ReloadJournal()

    init() {
        let config = Application.config
        greeting = config.string(forKey: "greeting", default: "hello")
        port = config.int(forKey: "port", default: 8080)
    }

    var observers: Void {
        Application.configurationDidReload += {
            journal.greetings.append(Application.config.string(forKey: "greeting", default: "hello"))
        }
    }

    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(environmentPrefix: "DEMO"))
    }
}

@MainActor
@Suite struct ConfigurationTests {
    // MARK: Layers

    @Test func argumentsWinOverTheEnvironmentWhichWinsOverTheFileWhichWinsOverTheDefaults() throws {
        let file = try TemporaryFile(#"{"a": "file", "b": "file", "c": "file"}"#)
        let configuration = AppConfiguration(
            arguments: ["--a", "arguments", "--config", file.path],
            environment: ["DEMO_A": "environment", "DEMO_B": "environment"],
            options: ConfigOptions(environmentPrefix: "DEMO", defaults: ["a": "defaults", "b": "defaults", "c": "defaults", "d": "defaults"])
        )
        let config = configuration.reader
        #expect(config.string(forKey: "a") == "arguments")
        #expect(config.string(forKey: "b") == "environment")
        #expect(config.string(forKey: "c") == "file")
        #expect(config.string(forKey: "d") == "defaults")
        #expect(config.string(forKey: "e", default: "call site") == "call site")
        #expect(configuration.filePath == file.path)

        // A test's overrides are above everything.
        let overridden = AppConfiguration(arguments: ["--a", "arguments"], overrides: ["a": "test"])
        #expect(overridden.reader.string(forKey: "a") == "test")
    }

    @Test func theFileIsNamedByItsFlagItsVariableOrTheDefaults() throws {
        let file = try TemporaryFile(#"{"port": 9000}"#)
        let byVariable = AppConfiguration(environment: ["DEMO_CONFIG": file.path], options: ConfigOptions(environmentPrefix: "DEMO"))
        #expect(byVariable.reader.int(forKey: "port") == 9000)
        let byDefault = AppConfiguration(options: ConfigOptions(fileKey: "settings", defaults: ["settings": .init(stringLiteral: file.path)]))
        #expect(byDefault.reader.int(forKey: "port") == 9000)
        let byFlag = AppConfiguration(arguments: ["--settings=\(file.path)"], options: ConfigOptions(fileKey: "settings"))
        #expect(byFlag.reader.int(forKey: "port") == 9000)
        #expect(AppConfiguration().filePath == nil)
    }

    @Test func keysAreSpelledAsFlagsAndVariablesTheWayTheProvidersLookThemUp() {
        let keys: [[String]] = [["roomCapacity"], ["http", "serverTimeout"], ["maxLine"], ["a1"]]
        for key in keys {
            let flag = AppConfiguration(arguments: [ConfigKeyNames.flag(key), "7"])
            #expect(flag.reader.int(forKey: ConfigKey(key)) == 7, "\(ConfigKeyNames.flag(key))")
            let variable = ConfigKeyNames.environment(key, prefix: "CHAT")
            let environment = AppConfiguration(environment: .variables([variable: "8"]), options: ConfigOptions(environmentPrefix: "CHAT"))
            #expect(environment.reader.int(forKey: ConfigKey(key)) == 8, "\(variable)")
        }
        #expect(ConfigKeyNames.flag(["roomCapacity"]) == "--room-capacity")
        #expect(ConfigKeyNames.environment(["http", "serverTimeout"], prefix: "CHAT") == "CHAT_HTTP_SERVER_TIMEOUT")
    }

    @Test func valuesWrittenInCodeConvertToTheTypeReadAsACommandLineValueWould() {
        let configuration = AppConfiguration(overrides: ["idle": 60, "port": "7000", "ratio": 2.0, "verbose": "yes", "name": 5])
        let config = configuration.reader
        #expect(config.double(forKey: "idle") == 60)
        #expect(config.int(forKey: "port") == 7000)
        #expect(config.int(forKey: "ratio") == 2)
        #expect(config.bool(forKey: "verbose") == true)
        #expect(config.string(forKey: "name") == "5")
        // What does not convert reads as the default.
        #expect(config.int(forKey: "verbose", default: 3) == 3)
    }

    // MARK: The JSON file

    @Test func aJSONFileGivesNestedKeysNumbersBooleansStringsAndArrays() throws {
        let file = try TemporaryFile("""
            {"http": {"port": 80, "host": "example.org", "tls": {"enabled": true}},
             "ratio": 0.5, "retries": 3.0, "tags": ["a", "b"], "ports": [1, 2], "nothing": null, "empty": []}
            """)
        let config = AppConfiguration(overrides: ["config": .init(stringLiteral: file.path)]).reader
        #expect(config.int(forKey: "http.port") == 80)
        #expect(config.scoped(to: "http").string(forKey: "host") == "example.org")
        #expect(config.bool(forKey: "http.tls.enabled") == true)
        #expect(config.double(forKey: "ratio") == 0.5)
        #expect(config.int(forKey: "retries") == 3)
        #expect(config.double(forKey: "http.port") == 80)
        #expect(config.stringArray(forKey: "tags") == ["a", "b"])
        #expect(config.intArray(forKey: "ports") == [1, 2])
        #expect(config.intArray(forKey: "empty") == [])
        #expect(config.string(forKey: "nothing", default: "none") == "none")
        // A value of another type reads as the default.
        #expect(config.int(forKey: "http.host", default: 1) == 1)
        #expect(config.int(forKey: "ratio", default: 1) == 1)
    }

    @Test func aFileThatIsNotAJSONObjectIsRejectedAtStartupWithADiagnosticAndTheAppStarts() throws {
        for text in ["not json", "[1, 2]", #"{"list": [1, "two"]}"#] {
            let file = try TemporaryFile(text)
            let app = TestApp(ConfiguredApp.self, config: ["config": .init(stringLiteral: file.path), "port": 9000])
            #expect(app.diagnostics.map(\.code) == [.configurationFileRejected], "\(text)")
            #expect(app.diagnostics.first?.message.contains(file.path) == true)
            #expect(app.root(as: ConfiguredApp.self)?.port == 9000)
            #expect(app.root(as: ConfiguredApp.self)?.greeting == "hello")
            #expect(app.context.configuration.filePath == nil)
        }
    }

    @Test func aMissingFileIsADiagnosticNamingThePathAndTheError() {
        let path = "/nonexistent/compose-\(UUID().uuidString).json"
        let app = TestApp(ConfiguredApp.self, config: ["config": .init(stringLiteral: path)])
        #expect(app.diagnostics.map(\.code) == [.configurationFileRejected])
        let message = app.diagnostics.first?.message ?? ""
        #expect(message.contains(path) && message.contains("ENOENT"), "\(message)")
    }

    @Test func anotherFileFormatComesFromTheOptionsByExtension() throws {
        let file = try TemporaryFile("{\"greeting\": \"from the format\"}", extension: "conf")
        let configuration = AppConfiguration(
            overrides: ["config": .init(stringLiteral: file.path)],
            options: ConfigOptions(fileFormats: ["conf": UppercasingSnapshot.self])
        )
        #expect(configuration.reader.string(forKey: "greeting") == "FROM THE FORMAT")
    }

    // MARK: TestApp

    @Test func aTestAppsInMemoryConfigurationReachesTheRootsInit() {
        let app = TestApp(ConfiguredApp.self, config: ["port": 7000, "greeting": "bonjour"])
        #expect(app.root(as: ConfiguredApp.self)?.port == 7000)
        #expect(app.root(as: ConfiguredApp.self)?.greeting == "bonjour")
        #expect(app.diagnostics.isEmpty)
        // Nothing comes from this process's arguments or environment.
        #expect(app.context.configuration.arguments.isEmpty)
    }

    @Test func servicesReadTheConfigurationWhenTheyAreMadeAndStarted() {
        let app = TestApp(ConfiguredApp.self, config: ["greeting": "salut", "port": 7003], services: { services in
            services.register(GreetingService.self, creation: .atStart) {
                GreetingService(port: Application.config.int(forKey: "port", default: 0))
            }
        })
        let service = app.context.services.resolve(GreetingService.self)
        #expect(service?.port == 7003)
        #expect(service?.greetingAtStart == "salut")
        #expect(app.diagnostics.isEmpty)
    }

    @Test func twoTestAppsSideBySideEachReadTheirOwnConfiguration() throws {
        let file = try TemporaryFile(#"{"greeting": "from a file"}"#)
        let first = TestApp(ConfiguredApp.self, config: ["port": 7001])
        let second = TestApp(ConfiguredApp.self, config: ["port": 7002, "config": .init(stringLiteral: file.path)])
        #expect(first.root(as: ConfiguredApp.self)?.port == 7001)
        #expect(second.root(as: ConfiguredApp.self)?.port == 7002)
        #expect(first.root(as: ConfiguredApp.self)?.greeting == "hello")
        #expect(second.root(as: ConfiguredApp.self)?.greeting == "from a file")
        #expect(first.run { Application.config.int(forKey: "port") } == 7001)
        #expect(second.run { Application.config.int(forKey: "port") } == 7002)

        // A reload of one is not a reload of the other.
        try file.write(#"{"greeting": "again"}"#)
        second.send(.hangup)
        #expect(second.root(as: ConfiguredApp.self)?.journal.greetings == ["again"])
        #expect(first.root(as: ConfiguredApp.self)?.journal.greetings == [])
    }

    // MARK: Reloading

    @Test func aHangupReReadsTheFileAndTellsTheApp() throws {
        let file = try TemporaryFile(#"{"greeting": "good morning"}"#)
        let app = TestApp(ConfiguredApp.self, config: ["config": .init(stringLiteral: file.path)])
        #expect(app.root(as: ConfiguredApp.self)?.greeting == "good morning")

        try file.write(#"{"greeting": "good evening"}"#)
        app.send(.hangup)
        #expect(app.root(as: ConfiguredApp.self)?.journal.greetings == ["good evening"])
        #expect(app.context.config.string(forKey: "greeting") == "good evening")
        #expect(!app.hasExited)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aHangupReReadsTheEnvironmentAndTheFileItNamesNow() throws {
        let morning = try TemporaryFile(#"{"greeting": "good morning"}"#)
        let evening = try TemporaryFile(#"{"greeting": "good evening"}"#)
        let app = TestApp(ConfiguredApp.self)
        app.context.configuration.environment = ["DEMO_CONFIG": morning.path, "DEMO_PORT": "9001"]
        app.send(.hangup)
        #expect(app.context.config.int(forKey: "port") == 9001)
        app.context.configuration.environment = ["DEMO_CONFIG": evening.path]
        app.send(.hangup)
        #expect(app.root(as: ConfiguredApp.self)?.journal.greetings == ["good morning", "good evening"])
        #expect(app.context.config.int(forKey: "port") == nil)
        #expect(app.context.configuration.filePath == evening.path)
    }

    @Test func aBadFileOnReloadIsADiagnosticAndThePreviousValuesStay() throws {
        let file = try TemporaryFile(#"{"greeting": "stable"}"#)
        let app = TestApp(ConfiguredApp.self, config: ["config": .init(stringLiteral: file.path)])
        app.context.configuration.environment = ["DEMO_PORT": "9001"]
        try file.write(#"{"greeting": "half-writ"#)
        app.send(.hangup)
        #expect(app.diagnostics.map(\.code) == [.configurationFileRejected])
        #expect(app.diagnostics.first?.message.contains(file.path) == true)
        // Every previous value stays, the environment's too, and the app
        // was not told of a reload.
        #expect(app.context.config.string(forKey: "greeting") == "stable")
        #expect(app.context.config.int(forKey: "port") == nil)
        #expect(app.root(as: ConfiguredApp.self)?.journal.greetings == [])
        #expect(!app.hasExited)

        // Once the file is fixed, the next reload takes it.
        try file.write(#"{"greeting": "fixed"}"#)
        app.send(.hangup)
        #expect(app.root(as: ConfiguredApp.self)?.journal.greetings == ["fixed"])
        #expect(app.context.config.int(forKey: "port") == 9001)
    }

    // MARK: --help and unknown flags

    @Test func theHelpListsTheSettingsReadWithTheirFlagsVariablesAndDefaults() throws {
        let configuration = AppConfiguration.forHelp(options: ConfigOptions(
            environmentPrefix: "DEMO",
            descriptions: ["greeting": "What clients are told first."]
        ))
        let app = TestApp(root: Bare())
        app.context.configuration = configuration
        _ = app.run { ConfiguredApp() }
        let help = configuration.help(program: "demo")
        #expect(help.hasPrefix("Usage: demo [--setting value ...]"))
        let lines = help.split(separator: "\n").map(String.init)
        let greeting = try #require(lines.firstIndex { $0.contains("--greeting <string>") })
        #expect(lines[greeting].contains("DEMO_GREETING") && lines[greeting].contains("default: hello"))
        #expect(lines[greeting + 1].trimmingCharacters(in: .whitespaces) == "What clients are told first.")
        let port = try #require(lines.firstIndex { $0.contains("--port <int>") })
        #expect(lines[port].contains("DEMO_PORT") && lines[port].contains("file: port") && lines[port].contains("default: 8080"))
        #expect(greeting < port)
        #expect(lines.contains { $0.contains("--config <file>") && $0.contains("DEMO_CONFIG") })
    }

    @Test func keysReadAreToldApartWhateverTheirComponentsHold() {
        let spellings = [["a", "b"], ["ab"], ["a:b"], ["a", ":b"], ["1:a"], [], [""], ["", ""]].map(ConfigAccessLog.flat)
        #expect(Set(spellings).count == spellings.count)
    }

    @Test func aFlagOfNoSettingIsOneDiagnosticNamingTheSettings() {
        let app = TestApp(root: Bare())
        app.context.configuration = AppConfiguration(arguments: ["--port", "1", "--prot=2", "--verbose"], options: ConfigOptions())
        _ = app.run { app.context.config.int(forKey: "port", default: 0) }
        #expect(app.context.configuration.reportUnreadArguments() == ["--prot", "--verbose"])
        #expect(app.diagnostics.map(\.code) == [.unknownArgument])
        #expect(app.diagnostics.first?.message == "Unknown option --prot (and --verbose): the app has no such setting; its settings: --port (--help lists them).")
    }

    /// A setting read only later (after the root is active) is known by
    /// its description or default.
    @Test func aSettingDescribedOrWithADefaultIsKnownBeforeItIsRead() {
        let app = TestApp(root: Bare())
        let options = ConfigOptions(defaults: ["http.port": 80], descriptions: ["lateGreeting": "Read when a client asks."])
        app.context.configuration = AppConfiguration(arguments: ["--late-greeting", "hi", "--http-port=8080", "--bogus"], options: options)
        #expect(app.context.configuration.reportUnreadArguments() == ["--bogus"])
        #expect(app.diagnostics.first?.message.contains("it reads none") == true)
    }
}

/// A file format of a test: JSON, with every string in capitals.
struct UppercasingSnapshot: FileConfigSnapshot {
    let json: JSONConfigSnapshot

    init(data: RawSpan, providerName: String, parsingOptions: JSONConfigSnapshot.ParsingOptions) throws {
        json = try JSONConfigSnapshot(data: data, providerName: providerName, parsingOptions: parsingOptions)
    }

    var providerName: String { json.providerName }
    var description: String { json.description }
    var debugDescription: String { json.debugDescription }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        var result = try json.value(forKey: key, type: type)
        if case .string(let string)? = result.value?.content { result.value = ConfigValue(.string(string.uppercased()), isSecret: false) }
        return result
    }
}
