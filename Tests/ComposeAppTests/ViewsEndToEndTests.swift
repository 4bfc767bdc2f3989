import Foundation
import Testing

/// A terminal app of views (ViewsFixture: a router of two screens, a text
/// field, a list, key bindings, a help line) in a real terminal, tmux: the
/// screens it shows as keys are typed, a resize laid out again, and after
/// SIGTERM the terminal given back (normal screen, `echo` and `icanon` on
/// in `stty -a`), and Ctrl+Z and `fg`. Skipped without tmux (`make test` installs it).
@Suite(.enabled(if: TmuxSession.path != nil, "tmux is not installed (apt-get install tmux; `make test` installs it): the terminal end-to-end tests need a real terminal"))
struct ViewsEndToEndTests {
    /// The process id ViewsFixture shows in its title (`... pid 1234 ...`,
    /// the screen's first line), or nil.
    static func fixturePID(in screen: String) -> Int32? {
        screen.split(separator: "\n").first.flatMap { line in
            line.split(separator: " ").drop { $0 != "pid" }.dropFirst().first.flatMap { Int32($0) }
        }
    }

    @Test func theScreensFollowTheKeysAResizeAndSIGTERMGivesTheTerminalBack() async throws {
        try await TmuxSession.run(environment: ["SWIFT_BACKTRACE": "enable=no"]) { session in
            let fixture = try FixtureProcess.executableURL("ViewsFixture").path
            try await session.type("'\(fixture)'; echo EXIT=$?; stty -a")
            try await session.press("Enter")
            var screen = try await session.waitFor("Views fixture")
            #expect(try await session.format("#{alternate_on}") == "1")
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            // The title bar's right end at column 80; the border; the help line.
            #expect(lines.first?.hasSuffix("right edge") == true && lines.first?.count == 80, "\(screen)")
            #expect(screen.contains("│new: type a name"), "\(screen)")
            #expect(screen.contains("│apples"), "\(screen)")
            #expect(screen.contains("Enter add  Tab next  Ctrl+C quit"), "\(screen)")
            let pid = try #require(Self.fixturePID(in: screen), "no pid in the title:\n\(screen)")

            // Typed into the focused field, added with Enter.
            try await session.type("cheese")
            try await session.press("Enter")
            screen = try await session.waitFor("│cheese")
            #expect(screen.contains("│new: type a name"), "the field was not cleared:\n\(screen)")

            // Tab to the list, Down twice, Enter: the item's screen.
            try await session.press("Tab")
            screen = try await session.waitFor("Enter open")
            try await session.press("Down")
            try await session.press("Down")
            try await session.press("Enter")
            screen = try await session.waitFor("item: cheese")
            #expect(screen.contains("Escape back"), "\(screen)")
            #expect(!screen.contains("│apples"), "\(screen)")

            // Escape: back to the list (after the key's 30 ms wait). Pressed
            // again if the screen did not change within 5 s (a key a very
            // busy machine lost; on the list, Escape does nothing).
            for _ in 0..<3 {
                try await session.press("Escape")
                if try await session.screen(within: 5, { $0.contains("│apples") }) != nil { break }
            }
            screen = try await session.waitFor("│apples")

            // A resize lays the screen out again.
            try await session.resize(columns: 100, rows: 30)
            screen = try await session.waitForScreen("the title bar at 100 columns") {
                $0.split(separator: "\n").first.map { $0.count == 100 && $0.hasSuffix("right edge") } ?? false
            }

            #expect(kill(pid, SIGTERM) == 0)
            try await TerminalEndToEndTests.expectGivenBack(session, exit: "0")
            screen = try await session.capture()
            #expect(!screen.contains("Views fixture"), "still on the app's screen:\n\(screen)")
        }
    }

    /// Ctrl+Z, or SIGTSTP from another process (`kill -TSTP`), stops the
    /// app as a shell job with the terminal given back (the shell's
    /// screen, `echo` and `icanon` in `stty -a`); `fg` continues it: its
    /// screen drawn whole again, keys read raw again.
    @Test(arguments: ["Ctrl+Z", "SIGTSTP"])
    func stoppedTheAppGivesTheTerminalBackAndFgBringsItBack(by stop: String) async throws {
        try await TmuxSession.run(environment: ["SWIFT_BACKTRACE": "enable=no"]) { session in
            let fixture = try FixtureProcess.executableURL("ViewsFixture").path
            try await session.type("'\(fixture)'")
            try await session.press("Enter")
            var screen = try await session.waitFor("Views fixture")
            let pid = try #require(Self.fixturePID(in: screen), "no pid in the title:\n\(screen)")
            try await session.type("cheese")
            screen = try await session.waitFor("│new: cheese")

            if stop == "Ctrl+Z" {
                try await session.press("C-z")
            } else {
                #expect(kill(pid, SIGTSTP) == 0)
            }
            screen = try await session.waitForScreen("the job stopped") { $0.contains("Stopped") && !$0.contains("Views fixture") }
            #expect(try await session.format("#{alternate_on}") == "0")
            #expect(try await session.format("#{cursor_flag}") == "1")
            try await session.type("stty -a")
            try await session.press("Enter")
            screen = try await session.waitFor("icanon")
            let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
            #expect(words.contains("echo") && !words.contains("-echo"), "\(screen)")
            #expect(words.contains("icanon") && !words.contains("-icanon"), "\(screen)")

            try await session.type("fg")
            try await session.press("Enter")
            screen = try await session.waitForScreen("the app's whole screen again") {
                $0.contains("Views fixture") && $0.contains("│new: cheese") && $0.contains("Ctrl+C quit")
            }
            #expect(try await session.format("#{alternate_on}") == "1")
            #expect(!screen.contains("icanon"), "the shell's lines are still on the app's screen:\n\(screen)")
            // Raw again: a key reaches the field at once, without echo.
            try await session.type("!")
            screen = try await session.waitFor("│new: cheese!")

            #expect(kill(pid, SIGTERM) == 0)
            try await session.waitForScreen("the shell's screen") { !$0.contains("Views fixture") }
            try await session.type("echo EXIT=$?; stty -a")
            try await session.press("Enter")
            try await TerminalEndToEndTests.expectGivenBack(session, exit: "0")
        }
    }

    /// Without a terminal, in a pipe to `head -1`: once head has its line
    /// and is gone, the app hears of it (it watches its pipe) and shuts
    /// down, with status 0, although its screen never changes again and
    /// its keys' pipe stays open and brings nothing: it would run on
    /// without this (the status is echoed right after it ends, in the
    /// same group, with `sleep` still running on its keys' pipe).
    @Test func inAPipeWhoseReaderWentAwayTheAppEnds() async throws {
        try await TmuxSession.run(environment: ["SWIFT_BACKTRACE": "enable=no"]) { session in
            let fixture = try FixtureProcess.executableURL("ViewsFixture").path
            try await session.type("sleep 60 | { '\(fixture)'; echo APP=$? >&2; } | head -1")
            try await session.press("Enter")
            let screen = try await session.waitForScreen("the app's exit status") {
                $0.split(separator: "\n").contains { $0.hasPrefix("APP=") }
            }
            #expect(screen.contains("APP=0"), "\(screen)")
            #expect(screen.contains("Views fixture"), "head's line:\n\(screen)")
            #expect(screen.contains("Standard output's reader went away"), "\(screen)")
        }
    }
}
