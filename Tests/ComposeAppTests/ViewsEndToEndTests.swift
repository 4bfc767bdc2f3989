import Foundation
import Testing

/// A terminal app of views (ViewsFixture: a router of two screens, a text
/// field, a list, key bindings, a help line) in a real terminal, tmux: the
/// screens it shows as keys are typed, a resize laid out again, and after
/// SIGTERM the terminal given back (normal screen, `echo` and `icanon` on
/// in `stty -a`). Skipped without tmux (`make test` installs it).
@Suite(.enabled(if: TmuxSession.path != nil, "tmux is not installed (apt-get install tmux; `make test` installs it): the terminal end-to-end tests need a real terminal"))
struct ViewsEndToEndTests {
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
            let pid = try #require(lines.first.flatMap { line in
                line.split(separator: " ").drop { $0 != "pid" }.dropFirst().first.flatMap { Int32($0) }
            }, "no pid in the title:\n\(screen)")

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

            // Escape: back to the list (after the key's 30 ms wait).
            try await session.press("Escape")
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
}
