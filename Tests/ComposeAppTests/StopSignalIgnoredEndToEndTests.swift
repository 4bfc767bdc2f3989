import Foundation
import Testing

/// A terminal app started with SIGTSTP ignored (`trap '' TSTP`, as a
/// shell without job control leaves it): neither Ctrl+Z nor `kill -TSTP`
/// stops it. Catching SIGTSTP for `kill -TSTP` replaced the inherited
/// ignoring with libuv's handler, and then both stopped the job.
@Suite(.enabled(if: TmuxSession.path != nil, "tmux is not installed (apt-get install tmux; `make test` installs it): the terminal end-to-end tests need a real terminal"))
struct StopSignalIgnoredEndToEndTests {
    /// The process's state letter from /proc (`T`: stopped).
    private static func state(of pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].first
    }

    @Test func withSIGTSTPIgnoredNeitherCtrlZNorKillStopsTheApp() async throws {
        try await TmuxSession.run(environment: ["SWIFT_BACKTRACE": "enable=no"]) { session in
            let fixture = try FixtureProcess.executableURL("ViewsFixture").path
            try await session.type("bash -c \"trap '' TSTP; exec '\(fixture)'\"")
            try await session.press("Enter")
            var screen = try await session.waitFor("Views fixture")
            let pid = try #require(ViewsEndToEndTests.fixturePID(in: screen), "no pid in the title:\n\(screen)")

            try await session.press("C-z")
            try await session.type("a")
            screen = try await session.waitFor("│new: a")
            #expect(Self.state(of: pid) != "T")
            #expect(!screen.contains("Stopped"), "\(screen)")

            #expect(kill(pid, SIGTSTP) == 0)
            try await session.type("b")
            screen = try await session.waitFor("│new: ab")
            #expect(Self.state(of: pid) != "T")
            #expect(try await session.format("#{alternate_on}") == "1")

            #expect(kill(pid, SIGTERM) == 0)
            try await session.waitForScreen("the shell's screen") { !$0.contains("Views fixture") }
            try await session.type("echo EXIT=$?; stty -a")
            try await session.press("Enter")
            try await TerminalEndToEndTests.expectGivenBack(session, exit: "0")
        }
    }
}
