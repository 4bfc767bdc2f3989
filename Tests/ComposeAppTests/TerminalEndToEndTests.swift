import Foundation
import Testing

/// A terminal app (TerminalFixture) in a real terminal, tmux: the screen it
/// draws, keys decoded as typed, a bracketed paste, a resize, and the
/// terminal given back (normal screen, `echo` and `icanon` on in `stty -a`)
/// after each way out: SIGTERM, `Application.shutdown()`, `exit()`, a
/// raised SIGSEGV, `abort()` and a real fault. Skipped without tmux (`make
/// test` installs it).
@Suite(.enabled(if: TmuxSession.path != nil, "tmux is not installed (apt-get install tmux; `make test` installs it): the terminal end-to-end tests need a real terminal"))
struct TerminalEndToEndTests {
    /// Starts the fixture in the pane's shell, then `stty -a` once it exits.
    static func start(_ session: TmuxSession, prefix: String = "") async throws -> Int32 {
        let fixture = try FixtureProcess.executableURL("TerminalFixture").path
        try await session.type("\(prefix)'\(fixture)'; echo EXIT=$?; stty -a")
        try await session.press("Enter")
        let screen = try await session.waitFor("COMPOSE TERMINAL FIXTURE")
        let pid = screen.split(separator: "\n").lazy.compactMap { line -> Int32? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("pid ") ? Int32(trimmed.dropFirst(4)) : nil
        }.first
        return try #require(pid, "no pid on the screen:\n\(screen)")
    }

    /// After the app exited: the exit line, the normal screen, the cursor
    /// shown, and `stty -a` with echo and canonical mode on.
    static func expectGivenBack(_ session: TmuxSession, exit status: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let screen = try await session.waitForScreen("the exit status and stty -a", sourceLocation: sourceLocation) {
            $0.split(separator: "\n").contains { $0.hasPrefix("EXIT=") || $0.hasPrefix("$ EXIT=") } && $0.contains("icanon")
        }
        #expect(screen.contains("EXIT=\(status)"), "\(screen)", sourceLocation: sourceLocation)
        #expect(!screen.contains("COMPOSE TERMINAL FIXTURE"), "still on the app's screen:\n\(screen)", sourceLocation: sourceLocation)
        let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        #expect(words.contains("echo") && !words.contains("-echo"), "\(screen)", sourceLocation: sourceLocation)
        #expect(words.contains("icanon") && !words.contains("-icanon"), "\(screen)", sourceLocation: sourceLocation)
        #expect(words.contains("isig") && words.contains("icrnl"), "\(screen)", sourceLocation: sourceLocation)
        #expect(try await session.format("#{alternate_on}") == "0", sourceLocation: sourceLocation)
        #expect(try await session.format("#{cursor_flag}") == "1", sourceLocation: sourceLocation)
    }

    @Test func theScreenKeysAPasteAndAResizeThenSIGTERMGivesTheTerminalBack() async throws {
        try await TmuxSession.run(environment: ["SWIFT_BACKTRACE": "enable=no"]) { session in
            let pid = try await Self.start(session)
            #expect(try await session.format("#{alternate_on}") == "1")
            var screen = try await session.capture()
            #expect(screen.contains("size 80x24 resizes 0"), "\(screen)")

            try await session.type("a")
            try await session.press("C-Up")
            try await session.press("M-x")
            try await session.press("F5")
            try await session.press("C-c")
            try await session.press("Escape")
            screen = try await session.waitFor("[a] [Ctrl+Up] [Alt+x] [F5] [Ctrl+C] [Escape]")

            try await session.paste("hello\nworld")
            screen = try await session.waitFor("paste [hello|world]")

            try await session.resize(columns: 100, rows: 30)
            screen = try await session.waitFor("size 100x30 resizes 1")

            #expect(kill(pid, SIGTERM) == 0)
            try await Self.expectGivenBack(session, exit: "0")
        }
    }

    @Test(arguments: [
        ("q", "0"),      // Application.shutdown()
        ("X", "3"),      // exit(3) from an observer: the atexit hook
        ("S", "139"),    // raise(SIGSEGV): the crash handler, then the default action
        ("A", "134"),    // abort()
        ("F", "139"),    // a write to address 16: the fault comes back to the default action
    ])
    func everyWayOutGivesTheTerminalBack(key: String, status: String) async throws {
        try await TmuxSession.run(environment: ["SWIFT_BACKTRACE": "enable=no"]) { session in
            _ = try await Self.start(session)
            try await session.type(key)
            try await Self.expectGivenBack(session, exit: status)
        }
    }

    @Test func aFaultIsHandedToSwiftsBacktracerAfterTheTerminalIsGivenBack() async throws {
        let environment = ["SWIFT_BACKTRACE": "enable=yes,interactive=no,symbolicate=off"]
        try await TmuxSession.run(environment: environment) { session in
            _ = try await Self.start(session)
            try await session.type("F")
            try await Self.expectGivenBack(session, exit: "139")
            // The backtracer's report is on the normal screen, after the app's.
            let history = try await session.tmux(["capture-pane", "-p", "-J", "-S", "-200", "-t", session.target])
            #expect(history.contains("Backtrace took"), "no crash report:\n\(history)")
        }
    }

    @Test func withTERMDumbTheAppWritesPlainLinesAndNoEscapeSequence() async throws {
        try await TmuxSession.run() { session in
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("compose-pane-\(UUID().uuidString).log")
            defer { try? FileManager.default.removeItem(at: log) }
            let fixture = try FixtureProcess.executableURL("TerminalFixture").path
            // Everything the pane receives, byte for byte.
            try await session.tmux(["pipe-pane", "-o", "-t", session.target, "cat > '\(log.path)'"])
            try await session.type("TERM=dumb '\(fixture)'; echo EXIT=$?")
            try await session.press("Enter")
            let screen = try await session.waitForScreen("the exit status") { screen in
                screen.split(separator: "\n").contains { $0.hasPrefix("EXIT=") }
            }
            try await session.tmux(["pipe-pane", "-t", session.target])
            #expect(screen.contains("not a terminal: plain output"), "\(screen)")
            #expect(screen.contains("EXIT=0"), "\(screen)")
            #expect(try await session.format("#{alternate_on}") == "0")
            let bytes = try Data(contentsOf: log)
            #expect(String(decoding: bytes, as: UTF8.self).contains("not a terminal: plain output"))
            #expect(!bytes.contains(0x1B), "an escape sequence reached the terminal: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }
}

/// The same fixture with standard output on a pipe: plain lines, not one
/// escape sequence, exit 0.
@Suite struct TerminalFallbackTests {
    @Test func withStandardOutputOnAPipeTheAppWritesPlainLinesOnly() async throws {
        let app = try FixtureProcess(executable: "TerminalFixture", environment: ["TERM": "xterm-256color"])
        #expect(await app.waitForExit() == 0, "\(app.transcript)")
        #expect(app.output.lines.contains("not a terminal: plain output"), "\(app.transcript)")
        #expect(app.output.lines.contains("size unknown, 0 writes"), "\(app.transcript)")
        #expect(!app.output.lines.joined().contains("\u{1B}"), "\(app.transcript)")
    }
}
