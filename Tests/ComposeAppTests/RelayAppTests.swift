import ComposeApp
import ComposeTesting
import Testing
@testable import ComposeRelay

/// The relay example as a whole app on a test context: simulated clients
/// on port 7171, scripted commands, virtual time. scripts/soak.py measures
/// the same daemon from outside with real processes.
@MainActor
@Suite struct RelayAppTests {
    @Test func echoAndMistakesAreAnsweredOnTheSpot() throws {
        let app = TestApp(RelayApp.self)
        let client = try app.connect(port: 7171)
        client.write("echo hello\nbogus\nrun rm\n")
        #expect(client.readLines() == [
            "hello",
            "error: unknown command bogus; try run NAME, stop, echo TEXT, stats, quit",
            "error: no command named rm; known: count, date, sleepers, stubborn, yes",
        ])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aClientThatStopsReadingPausesItsCommandAndLosesNothing() throws {
        let app = TestApp(RelayApp.self)
        let yes = app.scriptProcess("yes")
        let client = try app.connect(port: 7171)
        client.stopReading(window: 64 * 1024)
        client.write("run yes\n")
        let run = try #require(yes.runs.last)
        // 4 MiB of numbered lines, 64 KiB at a time, as a pipe delivers them.
        let lines = (0..<30_000).map { "line \($0) " + String(repeating: "y", count: 130) }
        var chunk = ""
        for line in lines {
            chunk += line + "\n"
            if chunk.utf8.count >= 64 * 1024 {
                run.writeOutput(chunk)
                chunk = ""
            }
        }
        run.writeOutput(chunk)
        app.advance(by: .milliseconds(10))
        // The client's send queue reached its high-water mark (1 MiB): the
        // child is paused and the rest waits in its pipe, not in the app.
        #expect(run.isOutputPaused)
        #expect(run.heldOutputBytes > 2 << 20)
        #expect(!client.isClosedByApp)

        client.resumeReading()
        app.advance(by: .milliseconds(10))
        run.exit(status: 0)
        app.advance(by: .milliseconds(10))
        #expect(!run.isOutputPaused)
        #expect(client.readLines() == lines + ["exit: exited with status 0"])
    }

    @Test func stopAndLeavingTerminateTheCommand() throws {
        let app = TestApp(RelayApp.self)
        let shell = app.scriptProcess("sh")
        let client = try app.connect(port: 7171)
        client.write("run sleepers\n")
        let first = try #require(shell.runs.last)
        #expect(first.arguments == ["-c", "sleep 3001 & sleep 3002 & wait"])
        client.write("stop\n")
        #expect(first.signalsReceived == [.terminate])
        #expect(client.readLines() == ["exit: killed by SIGTERM (signal 15)"])

        client.write("run sleepers\n")
        let second = try #require(shell.runs.last)
        #expect(second !== first)
        client.close()
        #expect(second.signalsReceived == [.terminate])
        #expect(!second.isRunning)
    }

    @Test func aLineOverTheLimitClosesTheConnectionWithAReason() throws {
        let app = TestApp(RelayApp.self)
        let flooder = try app.connect(port: 7171)
        let other = try app.connect(port: 7171)
        flooder.write([UInt8](repeating: UInt8(ascii: "x"), count: 70 * 1024))
        #expect(flooder.readLines() == ["error: line too long (more than 65536 bytes)"])
        #expect(flooder.isClosedByApp)
        other.write("echo still here\n")
        #expect(other.readLines() == ["still here"])
    }

    @Test func theTimerMeasuresItsLateness() throws {
        let app = TestApp(RelayApp.self)
        let client = try app.connect(port: 7171)
        app.advance(by: .seconds(1))
        client.write("stats\n")
        // On virtual time the timer is never late.
        #expect(client.readLines() == ["timer lateness µs: p50 0 p99 0 max 0 samples 99"])
    }

    // MARK: Settings

    /// The settings the relay reads from `arguments` (after the program's
    /// name) and `environment`, as `main()` would.
    func settings(_ arguments: String..., environment: AppConfiguration.Environment = [:]) -> RelaySettings {
        RelaySettings(config: AppConfiguration(arguments: arguments, environment: environment, options: RelaySettings.options))
    }

    @Test func theSettingsComeFromTheirFlagsOrVariablesAndBadValuesKeepTheDefaults() {
        let defaults = settings()
        #expect(defaults.host == "127.0.0.1")
        #expect(defaults.port == 7171)
        #expect(defaults.maxLineLength == 64 * 1024)
        #expect(defaults.shutdownDeadline == .seconds(10))

        let flags = settings("--host", "0.0.0.0", "--port", "7272", "--max-line", "512", "--deadline", "1")
        #expect(flags.host == "0.0.0.0")
        #expect(flags.port == 7272)
        #expect(flags.maxLineLength == 512)
        #expect(flags.shutdownDeadline == .seconds(1))

        let variables = settings(environment: ["RELAY_PORT": "7373", "RELAY_DEADLINE": "2"])
        #expect(variables.port == 7373)
        #expect(variables.shutdownDeadline == .seconds(2))

        let bad = settings("--port", "70000", "--max-line", "0", "--deadline", "soon")
        #expect(bad.port == 7171)
        #expect(bad.maxLineLength == 64 * 1024)
        #expect(bad.shutdownDeadline == .seconds(10))
    }

    @Test func aTestsConfigurationReachesTheRelay() throws {
        let app = TestApp(RelayApp.self, config: ["port": 7272, "maxLine": 16])
        #expect(throws: LoopError.self) { try app.connect(port: 7171) }
        let client = try app.connect(port: 7272)
        client.write("echo short\n")
        #expect(client.readLines() == ["short"])
        client.write("echo this line is too long\n")
        #expect(client.readLines() == ["error: line too long (more than 16 bytes)"])
        #expect(client.isClosedByApp)
    }
}
