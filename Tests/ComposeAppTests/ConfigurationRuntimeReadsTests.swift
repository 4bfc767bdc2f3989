@testable import ComposeApp
import ComposeTesting
import Testing

/// A file format whose every lookup throws: a layer that fails.
struct FailingSnapshot: FileConfigSnapshot {
    struct Failure: Error {}

    init(data: RawSpan, providerName: String, parsingOptions: JSONConfigSnapshot.ParsingOptions) throws {}

    var providerName: String { "failing" }
    var description: String { "failing" }
    var debugDescription: String { "failing" }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        throw Failure()
    }
}

/// The runtime's own reads (`workers`, `inspection`, `trace.file`, ...)
/// give what the app's `ConfigReader` gives and record the same for
/// `--help`, without making that reader: an app that reads no setting
/// never makes it (docs/footprint.md).
@MainActor
@Suite struct ConfigurationRuntimeReadsTests {
    /// One way of starting an app: its arguments, environment, overrides,
    /// options.
    struct Case {
        var arguments: [String] = []
        var environment: AppConfiguration.Environment = [:]
        var overrides: [AbsoluteConfigKey: ConfigValue] = [:]
        var options = ConfigOptions()

        @MainActor func make() -> AppConfiguration {
            AppConfiguration(arguments: arguments, environment: environment, overrides: overrides, options: options)
        }
    }

    /// Every runtime read, with what it gave and what the access log
    /// recorded, as text.
    static func readAll(_ configuration: AppConfiguration) -> [String] {
        var seen = [
            "workers \(configuration.runtimeInt(forKey: "workers", default: 1))",
            "reusePort \(configuration.runtimeBool(forKey: "reusePort", default: false))",
            "inspection \(configuration.runtimeBool(forKey: "inspection", default: true))",
            "trace.file \(String(describing: configuration.runtimeString(forKey: "trace.file")))",
            "trace.paths \(String(describing: configuration.runtimeStringArray(forKey: "trace.paths")))",
            "trace.paths \(String(describing: configuration.runtimeString(forKey: "trace.paths")))",
        ]
        for entry in configuration.accessLog.entries {
            seen.append("logged \(entry.key) \(entry.type) \(String(describing: entry.value))")
        }
        seen.append("file \(String(describing: configuration.filePath))")
        return seen
    }

    @Test func theRuntimesReadsGiveWhatTheReaderGivesWithoutMakingIt() throws {
        let file = try TemporaryFile(#"{"workers": 6, "inspection": false, "trace": {"file": "from-file", "paths": ["a", "b"]}, "reusePort": "yes"}"#)
        let failing = try TemporaryFile("", extension: "failing")
        let cases: [Case] = [
            Case(),
            Case(arguments: ["--workers", "4", "--inspection", "false", "--reuse-port"]),
            Case(arguments: ["--workers=abc", "--inspection=maybe", "--trace-file", "t.jsonl", "--trace-paths", "a,b"]),
            Case(arguments: ["--trace-paths", "a", "--trace-paths", "b", "--workers", "2", "--workers", "3"]),
            Case(arguments: ["--inspection", "--reuse-port", "false"]),
            Case(environment: ["WORKERS": "3", "INSPECTION": "no", "REUSE_PORT": "1", "TRACE_FILE": "f", "TRACE_PATHS": "a,b"]),
            Case(environment: ["WORKERS": "x", "INSPECTION": "perhaps", "TRACE_FILE": ""]),
            Case(environment: ["APP_WORKERS": "2", "WORKERS": "9"], options: ConfigOptions(environmentPrefix: "APP")),
            Case(overrides: ["workers": "5", "inspection": "yes", "reusePort": 1]),
            Case(overrides: ["workers": ConfigValue(.int(2), isSecret: true), "trace.file": ConfigValue(.string("s"), isSecret: true)]),
            Case(overrides: ["workers": "many", "inspection": 2.5]),
            Case(options: ConfigOptions(defaults: ["workers": 7, "inspection": false, "trace.paths": "x"])),
            Case(arguments: ["--config", file.path]),
            Case(arguments: ["--workers", "1"], environment: ["CONFIG": file.path, "INSPECTION": "true"]),
            Case(arguments: ["--settings", file.path], options: ConfigOptions(fileKey: "settings")),
            Case(options: ConfigOptions(defaults: ["config": .init(stringLiteral: file.path)])),
            Case(
                arguments: ["--config", failing.path, "--workers", "8"],
                options: ConfigOptions(fileFormats: ["failing": FailingSnapshot.self])
            ),
            Case(
                environment: ["CONFIG": failing.path, "WORKERS": "8"],
                options: ConfigOptions(defaults: ["inspection": false], fileFormats: ["failing": FailingSnapshot.self])
            ),
        ]
        for (index, startup) in cases.enumerated() {
            let withoutReader = startup.make()
            let withReader = startup.make()
            _ = withReader.reader
            #expect(Self.readAll(withoutReader) == Self.readAll(withReader), "case \(index)")
            #expect(withoutReader.builtReader == nil, "case \(index)")
        }
    }

    @Test func theReaderMadeAfterTheRuntimesReadsSeesTheSameValuesAndRecordsInTheSameLog() throws {
        let file = try TemporaryFile(#"{"port": 9000}"#)
        let configuration = AppConfiguration(
            arguments: ["--workers", "3", "--config", file.path, "--prot", "1"],
            environment: ["PORT": "9001"]
        )
        #expect(configuration.runtimeInt(forKey: "workers", default: 0) == 3)
        #expect(configuration.builtReader == nil)
        #expect(configuration.reader.int(forKey: "workers") == 3)
        #expect(configuration.reader.int(forKey: "port") == 9001)
        #expect(configuration.builtReader != nil)
        #expect(configuration.accessLog.entries.map(\.key.components) == [["workers"], ["port"]])
        // The runtime's reads after it go through it.
        #expect(configuration.runtimeBool(forKey: "inspection", default: true) == true)
        #expect(configuration.accessLog.entries.map(\.key.components) == [["workers"], ["port"], ["inspection"]])
        let app = TestApp(root: Bare())
        app.context.configuration = configuration
        #expect(configuration.reportUnreadArguments() == ["--prot"])
    }

    @Test func theHelpListsTheRuntimesSettingsReadBeforeAnyReader() {
        let configuration = AppConfiguration.forHelp(options: StartupConfiguration().describingRuntimeSettings().config)
        _ = RuntimeSettings(configuration, workers: 2)
        #expect(configuration.builtReader == nil)
        let help = configuration.help(program: "app")
        #expect(help.contains("--workers <int>"))
        #expect(help.contains("default: 2"))
        #expect(help.contains("--reuse-port <bool>"))
        #expect(help.contains("Run this many copies of the app"))
    }

    @Test func aReloadBeforeTheReaderIsMadeIsSeenByTheRuntimesReads() throws {
        let file = try TemporaryFile(#"{"workers": 2}"#)
        let configuration = AppConfiguration(arguments: ["--config", file.path])
        #expect(configuration.runtimeInt(forKey: "workers", default: 0) == 2)
        try file.write(#"{"workers": 5}"#)
        #expect(configuration.reload())
        #expect(configuration.builtReader == nil)
        #expect(configuration.reader.int(forKey: "workers") == 5)
    }
}
