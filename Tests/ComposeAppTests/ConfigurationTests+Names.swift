@testable import ComposeApp
import ComposeConfiguration
import ComposeTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Issue #29: without a prefix the environment variables were bare `PORT`,
// `CONFIG`, `WORKERS` (and platforms set `PORT` for other programs); a
// positional argument was silently ignored (`KVResp 6398` listened on the
// default port, while `--bogus 1` was reported).
extension ConfigurationTests {
    // MARK: The environment's prefix

    @Test(arguments: [
        ("notes", "NOTES"), ("hitCounterApp", "HIT_COUNTER_APP"), ("kVResp", "KVRESP"), ("echo2", "ECHO2"),
    ])
    func theEnvironmentsPrefixIsTheAppsNameByDefault(_ app: String, _ prefix: String) {
        #expect(ConfigOptions().environmentPrefix == .appName)
        #expect(ConfigOptions.EnvironmentPrefix.appName.resolved(app: app) == prefix)
        let configuration = AppConfiguration(environment: .variables(["\(prefix)_PORT": "7", "PORT": "9"]), appName: app)
        #expect(configuration.environmentPrefix == prefix)
        #expect(configuration.int(forKey: "port") == 7)
    }

    @Test func aPrefixOfTheAppsChoiceOrNoneIsKept() {
        let variables: AppConfiguration.Environment = .variables(["NOTES_PORT": "7", "CHAT_PORT": "8", "PORT": "9"])
        let chosen = AppConfiguration(environment: variables, options: ConfigOptions(environmentPrefix: "CHAT"), appName: "notes")
        #expect(chosen.int(forKey: "port") == 8)
        let none = AppConfiguration(environment: variables, options: ConfigOptions(environmentPrefix: .none), appName: "notes")
        #expect(none.environmentPrefix == nil)
        #expect(none.int(forKey: "port") == 9)
        #expect(ConfigOptions.EnvironmentPrefix.fixed("") == .none)
        // Outside an app (no name), the default has nothing to carry.
        #expect(AppConfiguration(environment: variables).int(forKey: "port") == 9)
    }

    @Test func theConfigurationFileAndTheRuntimesSettingsCarryThePrefixToo() throws {
        let file = try TemporaryFile(#"{"port": 7}"#)
        let configuration = AppConfiguration(
            environment: .variables(["NOTES_CONFIG": file.path, "NOTES_WORKERS": "2", "CONFIG": "/nowhere", "WORKERS": "9"]),
            options: ConfigOptions(fileFormat: .json),
            appName: "notes"
        )
        #expect(configuration.filePath == file.path)
        #expect(configuration.int(forKey: "port") == 7)
        #expect(configuration.int(forKey: "workers", default: 0) == 2)
    }

    @Test func theHelpNamesTheVariablesWithTheAppsName() {
        let configuration = AppConfiguration.forHelp(options: ConfigOptions(fileFormat: .json), appName: "notes")
        let app = TestApp(root: Bare())
        app.context.configuration = configuration
        _ = app.run { ConfiguredApp() }
        let help = configuration.help(program: "Notes")
        #expect(help.contains("NOTES_PORT"), "\(help)")
        #expect(help.contains("--config or NOTES_CONFIG"), "\(help)")
        #expect(!help.contains(" PORT "), "\(help)")
    }

    // MARK: Positional arguments

    @Test(arguments: [
        (["6398"], ["6398"]),
        (["--port", "1", "2"], []),                  // values of --port, as the provider reads them
        (["--verbose=yes", "extra"], ["extra"]),
        (["one", "--port", "1", "two"], ["one"]),
        (["-v"], ["-v"]),
        (["--port=1"], []),
    ] as [([String], [String])])
    func aPositionalArgumentNobodyDeclaredIsFound(_ arguments: [String], _ undeclared: [String]) {
        #expect(AppConfiguration(arguments: arguments).undeclaredPositionalArguments == undeclared)
    }

    @Test func aDeclaredPositionalArgumentIsTheValueOfItsKey() {
        let options = ConfigOptions(positionalKeys: ["port", "http.host"])
        let configuration = AppConfiguration(arguments: ["6398", "--verbose", "--name=x", "::1", "extra"], options: options)
        #expect(configuration.undeclaredPositionalArguments == ["extra"])
        #expect(configuration.int(forKey: "port") == 6398)
        #expect(configuration.string(forKey: "http.host") == "::1")
        #expect(configuration.usage(program: "kvresp") == "Usage: kvresp <port> <http.host> [--setting value ...]")
        #expect(AppConfiguration(arguments: ["6398"], options: options).undeclaredPositionalArguments.isEmpty)
    }

    @Test func anUndeclaredPositionalArgumentIsADiagnosticWithTheUsage() {
        let app = TestApp(root: Bare())
        app.context.configuration = AppConfiguration(arguments: ["6398", "7"])
        #expect(app.context.configuration.reportUndeclaredPositionalArguments() == ["6398", "7"])
        #expect(app.diagnostics.map(\.code) == [.unexpectedArgument])
        #expect(app.diagnostics.first?.message.contains("Unexpected argument 6398 (and 1 more)") == true)
        #expect(app.diagnostics.first?.message.contains("--port 9000") == true)
        #expect(app.context.configuration.usage(program: "kvresp") == "Usage: kvresp [--setting value ...]")
        #expect(AppConfiguration.usageErrorExitStatus == 64)
    }
}

/// The same, in a real process: the runtime's own wiring.
@Suite struct ConfigurationNamesProcessTests {
    /// `ComposeChat 6398` listened on 7070.
    @Test func aPositionalArgumentStopsTheAppWithAUsageLineAndExit64() async throws {
        let chat = try FixtureProcess(executable: "ComposeChat", arguments: ["6398"])
        #expect(await chat.waitForExit() == 64, "\(chat.transcript)")
        #expect(chat.errors.lines.contains("Usage: ComposeChat [--setting value ...]"), "\(chat.transcript)")
        #expect(chat.errors.lines.contains { $0.contains("unexpectedArgument") && $0.contains("6398") }, "\(chat.transcript)")
        #expect(!chat.output.lines.contains { $0.hasPrefix("listening on") }, "\(chat.transcript)")
    }

    /// `ComposeChat --prot 6398` listened on 7070 with only a warning.
    @Test func anUnknownOptionStopsTheAppWithAUsageLineAndExit64() async throws {
        let port = try TestSocket.freePort()
        let chat = try FixtureProcess(executable: "ComposeChat", arguments: ["--bogus", "1"], environment: ["CHAT_PORT": "\(port)"])
        #expect(await chat.waitForExit() == 64, "\(chat.transcript)")
        #expect(chat.errors.lines.contains("Usage: ComposeChat [--setting value ...]"), "\(chat.transcript)")
        #expect(chat.errors.lines.contains { $0.contains("unknownArgument") && $0.contains("Unknown option --bogus: the app has no such setting; its settings: ") && $0.contains("--port") }, "\(chat.transcript)")
        // The runtime's own settings are settings, wherever they are read.
        let allowed = try FixtureProcess(executable: "ComposeChat", arguments: ["--inspection-allows-changes", "true", "--inspection", "false"], environment: ["CHAT_PORT": "\(port)"])
        try await allowed.waitFor("listening on 127.0.0.1:\(port)")
        allowed.signal(SIGTERM)
        #expect(await allowed.waitForExit() == 0, "\(allowed.transcript)")
    }

    /// The fixture sets no prefix: its variables carry its root's name
    /// (`FixtureApp`).
    @Test func theHelpOfAnAppWithoutAPrefixNamesItsVariablesAfterIt() async throws {
        let help = try FixtureProcess(executable: "ComposeFixture", arguments: ["--help"])
        #expect(await help.waitForExit() == 0, "\(help.transcript)")
        #expect(help.output.lines.contains { $0.hasPrefix("  --workers <int>") && $0.contains("FIXTURE_APP_WORKERS") }, "\(help.transcript)")
        // It reads no configuration file: none is offered.
        #expect(!help.output.lines.contains { $0.contains("--config") }, "\(help.transcript)")
    }
}
