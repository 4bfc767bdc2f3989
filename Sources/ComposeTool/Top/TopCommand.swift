import ArgumentParser
import ComposeApp
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `compose top [<app>]`: a live terminal view of a running app through
/// its inspection socket (``TopApp``, run by the views' runtime).
struct TopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "Watch a running Compose app live in the terminal.",
        usage: """
        compose top [<app>] [--follow <path>] [--interval <interval>]
                    [--lines] [--directory <directory>]
        """,
        discussion: """
        Shows the app's component tree (routes, a container's instances,
        sends), its connections (peer, queued bytes), its loop's lag over
        time and its events per second, refreshed every --interval
        seconds, and the events of the path followed. Without an app, the
        one app running (a pid or a name when there are several).

        Keys: q quit, Tab next pane, Up/Down select, f follow the selected
        component or connection, r refresh now.

        Into a pipe or a file (or with --lines, or TERM=dumb) it prints the
        header, the tree and the connections as plain lines at each
        refresh. The first refresh turns on the app's send counting, as
        `compose inspect APP tree` does.

        Examples:
          compose top
          compose top ComposeChat --follow chatApp.server.sessions
          compose top 4242 --lines > top.log   (Ctrl-C to stop)
        """
    )

    @Argument(help: "The app: its pid, or its name as `compose inspect` lists it.")
    var app: String?

    @Option(help: "A path to follow from the start (e.g. chatApp.server.sessions).")
    var follow: String?

    @Option(help: "Seconds between refreshes (0.1 at least).")
    var interval: Double = 1

    @Flag(help: "Print plain lines, even at a terminal.")
    var lines = false

    @Option(help: "The directory of the apps' sockets (default: $XDG_RUNTIME_DIR/compose, else /tmp/compose-UID).")
    var directory: String?

    func validate() throws {
        guard interval >= 0.1, interval <= 3600 else {
            throw ValidationError("--interval is 0.1 to 3600 seconds.")
        }
    }

    func run() throws {
        let socket = try Self.socket(of: app, in: InspectionSockets.directory(override: directory))
        let environment = ProcessInfo.processInfo.environment
        let plain = lines || isatty(STDOUT_FILENO) != 1 || environment["TERM"] == "dumb"
        let arguments = Self.arguments(socket: socket.path, interval: interval, follow: follow, lines: plain)
        // The tool's entry point runs commands that are not async on the
        // main thread (ComposeMain): the app's loop takes it over.
        MainActor.assumeIsolated {
            TopApp.run(arguments: arguments)
        }
    }

    /// The app's settings (``TopApp``) for these options.
    static func arguments(socket: String, interval: Double, follow: String?, lines: Bool) -> [String] {
        var arguments = ["--socket=\(socket)", "--interval=\(interval)"]
        if let follow { arguments.append("--follow=\(follow)") }
        if lines { arguments.append("--lines=true") }
        return arguments
    }

    /// The socket of `target` (a pid or a name), or of the one app running.
    static func socket(of target: String?, in directory: String) throws -> AppSocket {
        if let target { return try InspectionSockets.find(target, in: directory) }
        let apps = try InspectionSockets.list(in: directory)
        guard apps.count == 1, let app = apps.first else {
            if apps.isEmpty { throw InspectError("No inspectable Compose app is running (sockets in \(directory)).") }
            throw InspectError("\(apps.count) apps are running: name one (\(apps.map { "\($0.name) \($0.pid)" }.joined(separator: ", "))).")
        }
        try InspectionSockets.checkSocket(app.path)
        return app
    }
}
