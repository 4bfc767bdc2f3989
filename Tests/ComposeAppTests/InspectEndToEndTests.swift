import Foundation
import Testing

/// `compose inspect` against the chat daemon, both real processes: the
/// daemon's inspection socket in a runtime directory of the test's own
/// (XDG_RUNTIME_DIR), two TCP clients, and the `compose` executable.
@Suite struct InspectEndToEndTests {
    /// A runtime directory for one test (short: socket paths hold 107
    /// bytes), owner only as XDG_RUNTIME_DIR is.
    static func runtimeDirectory() throws -> String {
        let path = "/tmp/compose-rt-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Runs `compose` with `arguments` to its end.
    static func compose(_ arguments: [String], runtime: String) async throws -> (status: Int32, output: [String], errors: String) {
        let tool = try FixtureProcess(executable: "compose", arguments: arguments, environment: ["XDG_RUNTIME_DIR": runtime])
        let status = await tool.waitForExit()
        return (status, tool.output.lines, tool.errors.text)
    }

    static func json(_ line: String?) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data((line ?? "").utf8)) as? [String: Any], "\(line ?? "nil")")
    }

    /// The components of `compose inspect PID tree --json`.
    static func components(of pid: Int32, runtime: String) async throws -> [[String: Any]] {
        let run = try await compose(["inspect", "\(pid)", "tree", "--json"], runtime: runtime)
        #expect(run.status == 0, "\(run.errors)")
        let tree = try json(run.output.first)["tree"] as? [String: Any]
        return try #require(tree?["components"] as? [[String: Any]])
    }

    @Test func inspectShowsTheSessionsFollowsAMessageAndOpensARoute() async throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime])
        let pid = chat.process.pid
        let socket = "\(runtime)/compose/ComposeChat.\(pid).sock"
        #expect(fileMode(socket).map { $0 & 0o777 } == 0o600)
        #expect(fileMode("\(runtime)/compose").map { $0 & 0o777 } == 0o700)

        let ada = try await chat.connect(as: "ada")
        ada.send("/join lab")
        try await ada.waitFor(ChatDaemonTests.inRoom("lab"))
        let bob = try await chat.connect(as: "bob")

        // The list: pid, name, uptime.
        let list = try await Self.compose(["inspect"], runtime: runtime)
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.first?.hasPrefix("PID") == true, "\(list.output)")
        #expect(list.output.contains { $0.hasPrefix("\(pid)") && $0.contains("ComposeChat") }, "\(list.output)")

        // Both sessions, at their paths.
        let sessions = try await Self.components(of: pid, runtime: runtime).filter { $0["type"] as? String == "SessionComponent" }
        #expect(sessions.map { $0["path"] as? String } == ["chatApp.server.sessions.1", "chatApp.server.sessions.2"])
        #expect(sessions.map { $0["routes"] as? [String] } == [["lobby", "room"], ["lobby"]])

        // The text tree, into a pipe: never cut; at the width asked for.
        let text = try await Self.compose(["inspect", "ComposeChat", "tree"], runtime: runtime)
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.contains { $0.contains("sessions: InstanceComponent<SessionComponent>  2 instances") }, "\(text.output)")
        let uncut = try await Self.compose(["inspect", "ComposeChat", "tree", "--width", "0"], runtime: runtime)
        // (The header's uptime and counting time differ.)
        #expect(text.output.dropFirst(3) == uncut.output.dropFirst(3))
        #expect(text.output.contains { $0.count > 60 })
        let narrow = try await Self.compose(["inspect", "ComposeChat", "tree", "--width", "60"], runtime: runtime)
        #expect(narrow.output.allSatisfy { $0.count <= 60 }, "\(narrow.output)")
        #expect(narrow.output.contains { $0.hasSuffix("…") }, "\(narrow.output)")

        // A chat message reaches a follower within 100 ms of its send.
        let follow = try FixtureProcess(
            executable: "compose",
            arguments: ["inspect", "\(pid)", "follow", "chatApp.server.sessions.1.room", "--json"],
            environment: ["XDG_RUNTIME_DIR": runtime]
        )
        _ = try await follow.waitForLine(startingWith: #"{"v":1,"ok":true,"command":"follow""#)
        let sent = ContinuousClock.now
        ada.send("hello from ada")
        let seen = await follow.output.waitForLine(timeout: FixtureProcess.failureTimeout) {
            $0.contains(#""path":"chatApp.server.sessions.1.room.say""#) && $0.contains("hello from ada")
        }
        let latency = ContinuousClock.now - sent
        #expect(seen, "\(follow.transcript)")
        #expect(latency < .milliseconds(100), "the message reached the follower after \(latency)")
        follow.signal(SIGTERM)
        _ = await follow.waitForExit(killedOnPurpose: true)

        // A follower into a pipe: lines never cut, times since the follow
        // began, and what the app writes as well as what it reads.
        let textFollow = try FixtureProcess(
            executable: "compose",
            arguments: ["inspect", "\(pid)", "follow", "chatApp.server.sessions.2"],
            environment: ["XDG_RUNTIME_DIR": runtime]
        )
        try await textFollow.waitFor("following chatApp.server.sessions.2 (Ctrl-C to stop)")
        let long = "a line longer than any terminal: " + String(repeating: "0123456789", count: 10)
        bob.send(long)
        let wrote = await textFollow.output.waitForLine(timeout: FixtureProcess.failureTimeout) {
            $0.contains("chatApp.server.sessions.2.connection wrote") && $0.contains("Commands: /join ROOM")
        }
        #expect(wrote, "\(textFollow.transcript)")
        #expect(textFollow.output.lines.contains { $0.hasSuffix("chatApp.server.sessions.2.lobby.input sent " + long) }, "\(textFollow.transcript)")
        #expect(textFollow.output.lines.dropFirst().allSatisfy { $0.wholeMatch(of: /\s*\+\d+\.\d{3}s chatApp\.server\.sessions\.2.*/) != nil }, "\(textFollow.transcript)")
        textFollow.signal(SIGTERM)
        _ = await textFollow.waitForExit(killedOnPurpose: true)

        // open changes the app: refused, since the chat does not allow it,
        // saying how to; nothing moves.
        let open = try await Self.compose(["inspect", "\(pid)", "open", "server/sessions/2/room"], runtime: runtime)
        #expect(open.status == 1)
        #expect(open.errors.contains("start it with --inspection-allows-changes true (or CHAT_INSPECTION_ALLOWS_CHANGES=true in its environment). (notAllowed)"), "\(open.errors)")
        let unmoved = try await Self.components(of: pid, runtime: runtime).first { $0["path"] as? String == "chatApp.server.sessions.2" }
        #expect(unmoved?["routes"] as? [String] == ["lobby"])

        // SIGUSR1 writes the tree and loop reports to the log.
        chat.process.signal(SIGUSR1)
        let logged = await chat.process.errors.waitForLine(timeout: FixtureProcess.failureTimeout) { $0.contains("connections: 2") }
        #expect(logged, "\(chat.process.errors.text)")
        #expect(chat.process.errors.text.contains("SIGUSR1: inspection report"))

        // The socket goes with the app.
        withExtendedLifetime(bob) {}
        chat.process.signal(SIGTERM)
        #expect(await chat.process.waitForExit() == 0, "\(chat.process.transcript)")
        #expect(fileMode(socket) == nil)
    }

    /// Started with `CHAT_INSPECTION_ALLOWS_CHANGES=true`, the chat lets
    /// `open` move a session, and its own observer of the session's
    /// router tells the room.
    @Test func anAppThatAllowsChangesOpensARouteAndItsObserversRun() async throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime, "CHAT_INSPECTION_ALLOWS_CHANGES": "true"])
        let pid = chat.process.pid
        let ada = try await chat.connect(as: "ada")
        ada.send("/join lab")
        try await ada.waitFor(ChatDaemonTests.inRoom("lab"))
        let bob = try await chat.connect(as: "bob")
        bob.send("/join lab")
        try await bob.waitFor(ChatDaemonTests.inRoom("lab"))

        let open = try await Self.compose(["inspect", "\(pid)", "open", "server/sessions/1/lobby"], runtime: runtime)
        #expect(open.status == 0, "\(open.errors)")
        #expect(open.output == ["opened server/sessions/1/lobby"])
        try await ada.waitFor("You left lab.")
        try await bob.waitFor("* ada left lab")
        let moved = try await Self.components(of: pid, runtime: runtime).first { $0["path"] as? String == "chatApp.server.sessions.1" }
        #expect(moved?["routes"] as? [String] == ["lobby"])

        // A route that leads nowhere: an error naming the choices, status 1.
        let bad = try await Self.compose(["inspect", "\(pid)", "open", "server/sessions/2/garden"], runtime: runtime)
        #expect(bad.status == 1)
        #expect(bad.errors.contains(#"Unknown route segment "garden""#), "\(bad.errors)")
        #expect(await chat.stop() == 0)
    }

    @Test func aFollowerNeitherHoldsTheShutdownNorOutlivesTheApp() async throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime])
        let follow = try FixtureProcess(
            executable: "compose",
            arguments: ["inspect", "\(chat.process.pid)", "follow"],
            environment: ["XDG_RUNTIME_DIR": runtime]
        )
        try await follow.waitFor("following everything (Ctrl-C to stop)")
        let asked = ContinuousClock.now
        chat.process.signal(SIGTERM)
        #expect(await chat.process.waitForExit() == 0, "\(chat.process.transcript)")
        // The drain does not wait for inspectors: it had no connection to
        // wait for, so it neither logged "Draining" nor timed out. (Said by
        // the log, not by the clock alone: under ASan, beside the whole
        // suite, shutdown and the leak check at exit once took 5.8 s.)
        let transcript = chat.process.transcript
        #expect(transcript.contains("Shutting down") && !transcript.contains("Draining") && !transcript.contains("Drain timeout"), "\(transcript)")
        #expect(ContinuousClock.now - asked < .seconds(30))
        #expect(await follow.waitForExit() == 0, "\(follow.transcript)")
    }

    @Test func theClientRefusesASocketOthersMayUseAndADirectoryOthersMayEnter() async throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let directory = runtime + "/compose"
        #expect(mkdir(directory, 0o700) == 0)
        // A socket named for a live process (this one), open to everyone.
        let socket = "\(directory)/Impostor.\(getpid()).sock"
        try makeStaleSocketFile(socket)
        #expect(chmod(socket, 0o666) == 0)
        let wide = try await Self.compose(["inspect", "\(getpid())", "tree"], runtime: runtime)
        #expect(wide.status != 0)
        #expect(wide.errors.contains("Refusing \(socket): its mode is 0666; it must be 0600"), "\(wide.errors)")

        #expect(chmod(socket, 0o600) == 0)
        #expect(chmod(directory, 0o755) == 0)
        let open = try await Self.compose(["inspect"], runtime: runtime)
        #expect(open.status != 0)
        #expect(open.errors.contains("Refusing \(directory): its mode is 0755; it must be 0700"), "\(open.errors)")
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func theClientRefusesASocketOfAnotherUser() async throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let directory = runtime + "/compose"
        #expect(mkdir(directory, 0o700) == 0)
        let socket = "\(directory)/Impostor.\(getpid()).sock"
        try makeStaleSocketFile(socket)
        #expect(chmod(socket, 0o600) == 0)
        #expect(chown(socket, 4242, 4242) == 0)
        let other = try await Self.compose(["inspect", "Impostor", "tree"], runtime: runtime)
        #expect(other.status != 0)
        #expect(other.errors.contains("Refusing \(socket): it belongs to uid 4242"), "\(other.errors)")
    }

    @Test func anAppWithInspectionTurnedOffHasNoSocket() async throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime, "CHAT_INSPECTION": "false"])
        let list = try await Self.compose(["inspect", "--json"], runtime: runtime)
        #expect(list.output == ["[]"], "\(list.output) \(list.errors)")
        #expect(await chat.stop() == 0)
    }

    @Test func anAppRefusesADirectoryOthersMayEnterAndRunsWithoutInspection() async throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        #expect(mkdir(runtime + "/compose", 0o777) == 0)
        #expect(chmod(runtime + "/compose", 0o777) == 0)
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime])
        try await chat.expectService()
        #expect(chat.process.errors.text.contains("runs without its inspection socket"), "\(chat.process.errors.text)")
        #expect(chat.process.errors.text.contains("mode 0777; it must be 0700"), "\(chat.process.errors.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime + "/compose").isEmpty)
        #expect(await chat.stop() == 0)
    }
}
