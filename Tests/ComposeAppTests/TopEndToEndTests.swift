import Foundation
import Testing

/// `compose top` against the chat daemon, all real processes: in tmux, two
/// TCP clients' sessions appear on its screen and one goes when its client
/// disconnects; into a pipe, the same as plain lines. Skipped without
/// tmux (`make test` installs it).
@Suite(.enabled(if: TmuxSession.path != nil, "tmux is not installed (apt-get install tmux; `make test` installs it): compose top's end-to-end test needs a real terminal"))
struct TopEndToEndTests {
    /// The session rows of the tree pane on `screen`.
    static func sessionRows(_ screen: String) -> [String] {
        screen.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /│\s+(\d+)  SessionComponent/).map { String($0.1) }
        }
    }

    @Test func sessionsAppearAndDisappearLiveThenQQuits() async throws {
        let runtime = try InspectEndToEndTests.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime])
        let pid = chat.process.pid
        let compose = try FixtureProcess.executableURL("compose").path
        try await TmuxSession.run(environment: ["XDG_RUNTIME_DIR": runtime]) { session in
            try await session.resize(columns: 80, rows: 24)
            try await session.type("'\(compose)' top \(pid) --interval 0.2; echo EXIT=$?")
            try await session.press("Enter")
            var screen = try await session.waitFor("ComposeChat  pid \(pid)")
            #expect(try await session.format("#{alternate_on}") == "1")
            #expect(Self.sessionRows(screen).isEmpty, "\(screen)")

            let ada = try await chat.connect(as: "ada")
            let bob = try chat.connect()
            // The tree and the connections come from two requests: each
            // shows when its reply came.
            screen = try await session.waitForScreen("two sessions and two connections") {
                Self.sessionRows($0) == ["1", "2"] && $0.contains("connections 2")
            }
            #expect(screen.contains("instances 2  connections 2"), "\(screen)")
            #expect(screen.contains("sessions  InstanceComponent  2 instan"), "\(screen)")
            #expect(screen.contains("127.0.0.1:"), "\(screen)")

            bob.disconnect()
            screen = try await session.waitForScreen("one session and one connection left") {
                Self.sessionRows($0) == ["1"] && $0.contains("connections 1")
            }
            #expect(screen.contains("instances 1  connections 1"), "\(screen)")
            // The picture in the README.
            if let path = ProcessInfo.processInfo.environment["COMPOSE_TOP_CAPTURE"] {
                try screen.write(toFile: path, atomically: true, encoding: .utf8)
            }

            try await session.type("q")
            screen = try await session.waitForScreen("the exit") { $0.split(separator: "\n").contains { $0.hasPrefix("EXIT=") } }
            #expect(screen.contains("EXIT=0"), "\(screen)")
            #expect(try await session.format("#{alternate_on}") == "0")
            withExtendedLifetime(ada) {}
        }
        chat.process.signal(SIGTERM)
        #expect(await chat.process.waitForExit() == 0, "\(chat.process.transcript)")
    }

}

/// `compose top` without a terminal.
@Suite struct TopFallbackTests {
    /// Into a pipe `compose top` prints plain lines (no escape sequence),
    /// with the app's own arguments (`top PID` reaches the tool, not the
    /// app's configuration: StartupComponent.run(arguments:)).
    @Test func intoAPipeItPrintsPlainLines() async throws {
        let runtime = try InspectEndToEndTests.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime])
        let ada = try await chat.connect(as: "ada")
        let top = try FixtureProcess(
            executable: "compose",
            arguments: ["top", "\(chat.process.pid)", "--interval", "0.2"],
            environment: ["XDG_RUNTIME_DIR": runtime]
        )
        let seen = await top.output.waitForLine(timeout: FixtureProcess.failureTimeout) {
            $0.contains("1  SessionComponent  lobby")
        }
        #expect(seen, "\(top.transcript)")
        let header = await top.output.waitForLine(timeout: FixtureProcess.failureTimeout) { [pid = chat.process.pid] in
            $0.hasPrefix("ComposeChat pid \(pid) up ") && $0.hasSuffix(" instances 1 connections 1")
        }
        #expect(header, "\(top.transcript)")
        #expect(!top.output.lines.joined().contains("\u{1B}"), "\(top.transcript)")
        top.signal(SIGTERM)
        #expect(await top.waitForExit() == 0, "\(top.transcript)")
        withExtendedLifetime(ada) {}
        chat.process.signal(SIGTERM)
        _ = await chat.process.waitForExit()
    }

    @Test func withoutARunningAppItSaysSoAndExits1() async throws {
        let runtime = try InspectEndToEndTests.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let run = try await InspectEndToEndTests.compose(["top"], runtime: runtime)
        #expect(run.status == 1)
        #expect(run.errors.contains("No inspectable Compose app is running"), "\(run.errors)")
    }
}

extension TopFallbackTests {
    /// A hang-up (the terminal went away) ends `compose top`, where a
    /// daemon would reload.
    @Test func aHangUpEndsIt() async throws {
        let runtime = try InspectEndToEndTests.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime])
        let top = try FixtureProcess(executable: "compose", arguments: ["top", "\(chat.process.pid)"], environment: ["XDG_RUNTIME_DIR": runtime])
        _ = try await top.waitForLine(startingWith: "ComposeChat pid \(chat.process.pid) up ")
        top.signal(SIGHUP)
        #expect(await top.waitForExit() == 0, "\(top.transcript)")
        chat.process.signal(SIGTERM)
        _ = await chat.process.waitForExit()
    }
}
