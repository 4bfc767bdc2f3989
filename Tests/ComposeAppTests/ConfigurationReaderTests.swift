@testable import ComposeApp
import ComposeConfiguration
import ComposeTesting
import Testing

/// swift-configuration's reader over an app's configuration
/// (ComposeConfiguration's `AppConfiguration.reader`) reads what the
/// configuration's own methods read, and its reads count for `--help` and
/// the unknown options as theirs do.
@MainActor
@Suite struct ConfigurationReaderTests {
    /// One way of starting an app: its arguments, environment, overrides,
    /// options.
    struct Case {
        var arguments: [String] = []
        var environment: AppConfiguration.Environment = [:]
        var overrides: [String: AppConfiguration.Value] = [:]
        var options = ConfigOptions(fileFormat: .json)

        @MainActor func make() -> AppConfiguration {
            AppConfiguration(arguments: arguments, environment: environment, overrides: overrides, options: options)
        }
    }

    /// The runtime's settings and a few others, read through the
    /// configuration's own methods, as text.
    static func ownReads(_ configuration: AppConfiguration) -> [String] {
        [
            "workers \(configuration.int(forKey: "workers", default: 1))",
            "reusePort \(configuration.bool(forKey: "reusePort", default: false))",
            "inspection \(configuration.bool(forKey: "inspection", default: true))",
            "trace.file \(String(describing: configuration.string(forKey: "trace.file")))",
            "trace.paths \(String(describing: configuration.stringArray(forKey: "trace.paths")))",
            "ratio \(String(describing: configuration.double(forKey: "ratio")))",
            "ports \(String(describing: configuration.intArray(forKey: "ports")))",
        ]
    }

    /// The same, through swift-configuration's reader.
    static func readerReads(_ configuration: AppConfiguration) -> [String] {
        let reader = configuration.reader
        return [
            "workers \(reader.int(forKey: "workers", default: 1))",
            "reusePort \(reader.bool(forKey: "reusePort", default: false))",
            "inspection \(reader.bool(forKey: "inspection", default: true))",
            "trace.file \(String(describing: reader.string(forKey: "trace.file")))",
            "trace.paths \(String(describing: reader.stringArray(forKey: "trace.paths")))",
            "ratio \(String(describing: reader.double(forKey: "ratio")))",
            "ports \(String(describing: reader.intArray(forKey: "ports")))",
        ]
    }

    /// What the access log recorded, as text.
    static func logged(_ configuration: AppConfiguration) -> [String] {
        configuration.accessLog.entries.map { "\($0.key) \($0.type) \(String(describing: $0.value))" }
    }

    @Test func theReaderGivesWhatTheConfigurationGivesAndLogsTheSame() throws {
        let file = try TemporaryFile(#"{"workers": 6, "inspection": false, "trace": {"file": "from-file", "paths": ["a", "b"]}, "reusePort": "yes", "ports": [80, 443]}"#)
        let cases: [Case] = [
            Case(),
            Case(arguments: ["--workers", "4", "--inspection", "false", "--reuse-port", "--ratio", "0.5"]),
            Case(arguments: ["--workers=abc", "--inspection=maybe", "--trace-file", "t.jsonl", "--trace-paths", "a,b", "--ports", "1,x"]),
            Case(arguments: ["--trace-paths", "a", "--trace-paths", "b", "--workers", "2", "--workers", "3"]),
            Case(arguments: ["--inspection", "--reuse-port", "false"]),
            Case(environment: ["WORKERS": "3", "INSPECTION": "no", "REUSE_PORT": "1", "TRACE_FILE": "f", "TRACE_PATHS": "a,b", "PORTS": "1, 2"]),
            Case(environment: ["WORKERS": "x", "INSPECTION": "perhaps", "TRACE_FILE": ""]),
            Case(environment: ["APP_WORKERS": "2", "WORKERS": "9"], options: ConfigOptions(environmentPrefix: "APP")),
            Case(overrides: ["workers": "5", "inspection": "yes", "reusePort": 1, "ratio": 2]),
            Case(overrides: ["workers": "many", "inspection": 2.5, "ports": .doubleArray([1, 2.5])]),
            Case(options: ConfigOptions(defaults: ["workers": 7, "inspection": false, "trace.paths": "x"])),
            Case(arguments: ["--config", file.path]),
            Case(arguments: ["--workers", "1"], environment: ["CONFIG": file.path, "INSPECTION": "true"]),
            Case(arguments: ["--settings", file.path], options: ConfigOptions(fileKey: "settings", fileFormat: .json)),
            Case(options: ConfigOptions(fileFormat: .json, defaults: ["config": .string(file.path)])),
        ]
        for (index, startup) in cases.enumerated() {
            let own = startup.make()
            let bridged = startup.make()
            #expect(Self.ownReads(own) == Self.readerReads(bridged), "case \(index)")
            #expect(Self.logged(own) == Self.logged(bridged), "case \(index)")
        }
    }

    @Test func theReaderIsMadeOnceAndItsReadsCountForTheUnknownOptions() throws {
        let configuration = AppConfiguration(arguments: ["--workers", "3", "--http-port", "1", "--prot", "1"], environment: ["PORT": "9001"])
        #expect(configuration.int(forKey: "workers", default: 0) == 3)
        let reader = configuration.reader
        #expect(reader.scoped(to: "http").int(forKey: "port") == 1)
        #expect(configuration.reader.int(forKey: "port") == 9001)
        #expect(configuration.accessLog.entries.map(\.key) == ["workers", "http.port", "port"])
        let app = TestApp(root: Bare())
        app.context.configuration = configuration
        #expect(configuration.reportUnreadArguments() == ["--prot"])
    }

    @Test func aReloadIsSeenByTheReader() throws {
        let file = try TemporaryFile(#"{"workers": 2}"#)
        let configuration = AppConfiguration(arguments: ["--config", file.path], options: ConfigOptions(fileFormat: .json))
        let reader = configuration.reader
        #expect(reader.int(forKey: "workers") == 2)
        try file.write(#"{"workers": 5}"#)
        #expect(configuration.reload())
        #expect(reader.int(forKey: "workers") == 5)
        #expect(configuration.reader.snapshot().int(forKey: "workers") == 5)
    }

    @Test func theHelpListsTheRuntimesSettings() {
        let configuration = AppConfiguration.forHelp(options: StartupConfiguration().describingRuntimeSettings().config)
        _ = RuntimeSettings(configuration, workers: 2)
        let help = configuration.help(program: "app")
        #expect(help.contains("--workers <int>"))
        #expect(help.contains("default: 2"))
        #expect(help.contains("--reuse-port <bool>"))
        #expect(help.contains("Run this many copies of the app"))
    }
}
