import Foundation
import Testing

/// The chat daemon (Examples/Chat), unchanged, socket-activated by a real
/// launcher: a listening socket as descriptor 3 with `LISTEN_FDS=1` and
/// `LISTEN_PID` set to the daemon's own process ID.
@Suite struct ActivatedChatTests {
    /// What a shell does in front of the daemon: moves the socket it was
    /// given as standard input to descriptor 3, and `exec`s the daemon with
    /// its own process ID (`$$`, which `exec` keeps) as `LISTEN_PID`.
    static let shellLauncher = [
        "/bin/sh", "-c", #"exec 3<&0 0</dev/null; LISTEN_FDS=1 LISTEN_PID=$$ LISTEN_FDNAMES=chat exec "$@""#, "launcher",
    ]

    @Test func theChatServesOnTheSocketItInheritsAndNeverBindsItsOwnPort() async throws {
        let inherited = try TestSocket.tcp()
        // Its own port is taken: binding it would fail (and the daemon exit 1).
        let held = try TestSocket.tcp()
        let chat = try FixtureProcess(
            executable: "ComposeChat",
            environment: ["CHAT_PORT": "\(held.port)"],
            launcher: Self.shellLauncher,
            standardInput: inherited.fileHandle
        )
        try await chat.waitFor("listening on 127.0.0.1:\(inherited.port)")
        let daemon = ChatDaemon(process: chat, port: inherited.port)
        let ada = try await daemon.connect(as: "ada")
        ada.send("/who")
        try await ada.waitFor("Here: ada")
        #expect(chat.errors.text.contains("listens on the inherited fd 3 (\"chat\")"), "\(chat.transcript)")
        #expect(!chat.errors.text.contains("unclaimedInheritedSocket"), "\(chat.transcript)")

        chat.signal(SIGTERM)
        #expect(await ada.waitForClose())
        #expect(ada.lines.last == ChatDaemonTests.goodbye)
        #expect(await chat.waitForExit() == 0, "\(chat.transcript)")
    }

    /// systemd-socket-activate closes every descriptor it did not open.
    /// Foundation's `Process` learns of its child's exit through a socket the
    /// child inherits, and on its end of file blocks in `waitpid` on the one
    /// thread that watches every child: started directly, the launcher would
    /// stall every other test's process until it exits. So a shell runs it
    /// (and keeps that socket) and the daemon is the shell's child.
    static let systemdLauncher = ["/bin/sh", "-c", #"/usr/bin/systemd-socket-activate "$@"; exit $?"#, "launcher"]

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate")))
    func systemdSocketActivateStartsTheChatOnTheFirstConnectionAndItServesIt() async throws {
        let port = try TestSocket.freePort()
        let shell = try FixtureProcess(
            executable: "ComposeChat",
            name: "systemd-socket-activate ComposeChat",
            launcher: Self.systemdLauncher + ["-l", "127.0.0.1:\(port)", "--fdname=chat"]
        )
        // systemd-socket-activate listens, says so, and starts the daemon
        // (in its own process: it execs it) at the first connection.
        let listening = await shell.errors.waitForLine(timeout: FixtureProcess.failureTimeout) { $0.hasPrefix("Listening on") }
        #expect(listening, "\(shell.transcript)")
        let daemon = ChatDaemon(process: shell, port: port)
        let ada = try await daemon.connect(as: "ada")
        ada.send("/who")
        try await ada.waitFor("Here: ada")
        try await shell.waitFor("listening on 127.0.0.1:\(port)")
        #expect(shell.errors.text.contains("listens on the inherited fd 3 (\"chat\")"), "\(shell.transcript)")

        // The daemon is the shell's only child.
        let children = (try? String(contentsOfFile: "/proc/\(shell.pid)/task/\(shell.pid)/children", encoding: .utf8)) ?? ""
        let chat = try #require(children.split(separator: " ").first.flatMap { Int32($0) }, "\(children)")
        kill(chat, SIGTERM)
        #expect(await ada.waitForClose())
        #expect(await shell.waitForExit() == 0, "\(shell.transcript)")
    }
}
