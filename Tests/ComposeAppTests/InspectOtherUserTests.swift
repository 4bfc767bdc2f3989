import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Another user's `compose inspect` against the chat daemon, for real: the
/// daemon runs as this (root) test, the `compose` executable as uid 65534
/// (`nobody`) through `setpriv`. The owner-only directory keeps the other
/// user from even seeing the apps; and when every file permission is
/// opened to them, the app still refuses them by the kernel's word on who
/// connected (`SO_PEERCRED`).
@Suite struct InspectOtherUserTests {
    /// The other user and group.
    static let other: UInt32 = 65534
    static let setpriv = "/usr/bin/setpriv"
    /// Only root can run a program as another user; setpriv (util-linux)
    /// does it without a shell or PAM.
    static let canSwitchUser = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv)

    /// Runs `compose` as uid and gid 65534, without supplementary groups.
    static func composeAsOther(_ arguments: [String], runtime: String) async throws -> (status: Int32, output: [String], errors: String) {
        let tool = try FixtureProcess(
            executable: "compose",
            arguments: arguments,
            environment: ["XDG_RUNTIME_DIR": runtime],
            launcher: [setpriv, "--reuid=\(other)", "--regid=\(other)", "--clear-groups"]
        )
        let status = await tool.waitForExit()
        return (status, tool.output.lines, tool.errors.text)
    }

    @Test(.enabled(if: canSwitchUser, "needs root and /usr/bin/setpriv to run the client as uid 65534"))
    func anotherUserCanNeitherListTheAppsNorInspectOneThroughItsSocket() async throws {
        let runtime = try InspectEndToEndTests.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let chat = try await ChatDaemon.start(environment: ["XDG_RUNTIME_DIR": runtime])
        let pid = chat.process.pid
        let directory = runtime + "/compose"
        let socket = "\(directory)/ComposeChat.\(pid).sock"

        // The owner-only directory: the other user is told so, rather than
        // "no app is running".
        let list = try await Self.composeAsOther(["inspect"], runtime: runtime)
        #expect(list.status == 1, "\(list.output) \(list.errors)")
        #expect(list.errors.contains("Cannot read \(directory): Permission denied"), "\(list.errors)")
        let byPid = try await Self.composeAsOther(["inspect", "\(pid)", "tree"], runtime: runtime)
        #expect(byPid.status == 1)
        #expect(byPid.errors.contains("Cannot read \(directory): Permission denied"), "\(byPid.errors)")
        #expect(byPid.output.isEmpty)

        // Every file permission opened to them: the socket linked into an
        // owner-only directory of their own, and given to them, so that the
        // client's checks pass and connect(2) succeeds. The app asks the
        // kernel who connected, and refuses.
        let otherRuntime = try InspectEndToEndTests.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: otherRuntime) }
        #expect(mkdir(otherRuntime + "/compose", 0o700) == 0)
        #expect(chown(otherRuntime, Self.other, Self.other) == 0)
        #expect(chown(otherRuntime + "/compose", Self.other, Self.other) == 0)
        let linked = "\(otherRuntime)/compose/ComposeChat.\(pid).sock"
        #expect(Glibc.link(socket, linked) == 0, "link: \(String(cString: strerror(errno)))")
        #expect(chown(socket, Self.other, Self.other) == 0)
        let refused = try await Self.composeAsOther(["inspect", "\(pid)", "tree", "--json"], runtime: otherRuntime)
        #expect(refused.status == 1)
        let reply = try InspectEndToEndTests.json(refused.output.first)
        #expect(reply["ok"] as? Bool == false, "\(refused.output)")
        let error = reply["error"] as? [String: Any]
        #expect(error?["code"] as? String == "refused", "\(refused.output)")
        #expect((error?["message"] as? String)?.contains("of uid \(Self.other) may not inspect this app (only uid 0 may)") == true, "\(refused.output)")
        #expect(!refused.output.joined().contains("SessionComponent"))
        let logged = await chat.process.errors.waitForLine(timeout: FixtureProcess.failureTimeout) { $0.contains("Inspection client refused") }
        #expect(logged, "\(chat.process.errors.text)")

        // The socket back to its owner: the app's own user is served as before.
        #expect(chown(socket, 0, 0) == 0)
        let own = try await InspectEndToEndTests.compose(["inspect", "\(pid)", "info"], runtime: runtime)
        #expect(own.status == 0, "\(own.errors)")
        #expect(own.output.first?.hasPrefix("ComposeChat  pid \(pid)") == true, "\(own.output)")
        #expect(await chat.stop() == 0)
    }
}
