import ArgumentParser
import Foundation

/// `compose inspect [PID|NAME [COMMAND [ARGUMENT]]] [--json]`: lists the
/// running apps, or asks one of them through its inspection socket.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Look inside a running Compose app.",
        usage: """
        compose inspect [<app> [<command> [<argument>]]] [--json]
                        [--width <width>] [--utc]
                        [--directory <directory>] [--timeout <timeout>]
        """,
        discussion: """
        Without an app, lists the running apps (pid, name, uptime). With one
        (a pid or a name), runs COMMAND (tree by default):
          tree                 the live component tree: routes, instances,
                               emitters (observers, sends, last value),
                               stores, services
          loop                 open handles by type, listeners (a TLS one's
                               certificate and its expiry), connections
                               with their peer and queued bytes, child
                               processes, loop lag when measured
          follow [PATH]        a live stream of sends, writes to
                               connections, route changes, lifecycle and
                               diagnostics under PATH (Ctrl-C to stop);
                               times since the follow began, or UTC
                               with --utc
          open ROUTE           opens a deep link (e.g. auth/signUp), if
                               the app allows changes
          info                 name, pid, uptime, protocol version
          counting on|off      counts sends (tree turns it on) or stops

        Text lines are cut to the terminal's width (--width sets it; 0
        never cuts); into a pipe or a file they are never cut.

        Apps listen on $XDG_RUNTIME_DIR/compose/NAME.PID.sock (else
        /tmp/compose-UID/); only their own user may connect. An app answers
        open only if it allows changes (StartupConfiguration's
        inspectionAllowsChanges, or --inspection-allows-changes true). The
        protocol is in docs/inspection-protocol.md.

        Examples:
          compose inspect
          compose inspect 4242 tree
          compose inspect ComposeChat follow chatApp.server.sessions
          compose inspect ComposeChat follow --utc > events.log
          compose inspect 4242 open server/sessions/1/lobby --json
        """
    )

    @Argument(help: "The app: its pid, or its name as the list shows it.")
    var app: String?

    @Argument(help: "tree, loop, follow, open, info or counting.")
    var command: String?

    @Argument(help: "follow's path prefix, open's route, or counting's on/off.")
    var argument: String?

    @Flag(help: "Print the protocol's JSON lines, for programs.")
    var json = false

    @Option(help: "Cut text lines at this many columns, 0 for never (default: the terminal's width; never cut when output is not a terminal).")
    var width: Int?

    @Flag(help: "Show follow's times as UTC wall-clock time (ISO 8601), not as the time since the follow began.")
    var utc = false

    @Option(help: "The directory of the apps' sockets (default: $XDG_RUNTIME_DIR/compose, else /tmp/compose-UID).")
    var directory: String?

    @Option(help: "Seconds to wait for an answer.")
    var timeout: Double = 5

    func validate() throws {
        if let width, width < 0 { throw ValidationError("--width is a number of columns, 0 or more (0: never cut).") }
        guard let command else { return }
        let known = ["tree", "loop", "follow", "open", "info", "counting"]
        guard known.contains(command) else {
            throw ValidationError("Unknown command \"\(command)\"; commands: \(known.joined(separator: ", ")).")
        }
        if command == "open", argument == nil { throw ValidationError("open needs a ROUTE.") }
        if ["tree", "loop", "info"].contains(command), argument != nil {
            throw ValidationError("\(command) takes no argument.")
        }
    }

    func run() throws {
        let folder = InspectionSockets.directory(override: directory)
        guard let app else {
            try list(in: folder)
            return
        }
        let socket = try InspectionSockets.find(app, in: folder)
        let client = try InspectionClient(path: socket.path, timeout: timeout)
        let name = command ?? "tree"
        let request = Self.request(name, argument: argument, text: !json, width: TerminalWidth.columns(requested: width), utc: utc)
        if name == "follow" {
            try follow(client, request)
            return
        }
        let reply = try client.ask(request)
        if !(try show(reply)) { throw ExitCode.failure }
    }

    // MARK: Commands

    /// The request line for `command`.
    ///
    /// - Parameters:
    ///   - width: The columns text lines are cut at; 0 never cuts.
    ///   - utc: Whether `follow` shows UTC wall-clock times rather than
    ///     times since it began.
    static func request(_ command: String, argument: String?, text: Bool, width: Int = 0, utc: Bool = false) -> String {
        var request: [String: Any] = ["v": 1, "command": command, "format": text ? "text" : "json"]
        if text { request["width"] = width }
        if command == "follow", utc { request["time"] = "utc" }
        switch command {
        case "follow": request["path"] = argument ?? ""
        case "open": request["route"] = argument ?? ""
        case "counting": request["on"] = argument != "off"
        default: break
        }
        let data = (try? JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Prints `reply` (its text, or the JSON line with `--json`); `false`
    /// for an error reply, whose message goes to standard error.
    private func show(_ reply: String) throws -> Bool {
        let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any]
        let failed = object?["ok"] as? Bool == false
        if json {
            Self.emit(reply)
        } else if let text = object?["text"] as? String {
            Self.emit(text)
        } else if failed, let error = object?["error"] as? [String: Any] {
            FileHandle.standardError.write(Data("Error: \(error["message"] as? String ?? reply) (\(error["code"] as? String ?? "?"))\n".utf8))
        } else {
            Self.emit(reply)
        }
        return !failed
    }

    /// Prints the follow stream until the app closes the connection.
    private func follow(_ client: InspectionClient, _ request: String) throws {
        try client.send(request)
        guard let first = try client.readLine() else { return }
        guard try show(first) else { throw ExitCode.failure }
        client.setTimeout(nil)
        while let line = try client.readLine() {
            _ = try show(line)
        }
    }

    /// `compose inspect`: each running app's pid, name and uptime.
    private func list(in folder: String) throws {
        let apps = try InspectionSockets.list(in: folder)
        var rows: [(app: AppSocket, info: [String: Any]?)] = []
        for app in apps {
            var info: [String: Any]?
            if (try? InspectionSockets.checkSocket(app.path)) != nil,
               let client = try? InspectionClient(path: app.path, timeout: min(timeout, 2)),
               let reply = try? client.ask(#"{"v":1,"command":"info"}"#) {
                info = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any]
            }
            rows.append((app, info))
        }
        if json {
            let objects: [[String: Any]] = rows.map { row in
                var object: [String: Any] = ["pid": Int(row.app.pid), "name": row.app.name, "socket": row.app.path, "answering": row.info != nil]
                if let uptime = row.info?["uptime"] { object["uptime"] = uptime }
                if let name = row.info?["app"] { object["app"] = name }
                return object
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        guard !rows.isEmpty else {
            print("No inspectable Compose app is running (sockets in \(folder)).")
            return
        }
        print(Self.pad("PID", 9) + Self.pad("NAME", 28) + "UPTIME")
        for row in rows {
            let uptime = (row.info?["uptime"] as? Double).map(Self.duration) ?? "(not answering)"
            print(Self.pad(String(row.app.pid), 9) + Self.pad(row.app.name, 28) + uptime)
        }
    }

    /// Writes `line` to standard output at once (not through a buffer, so
    /// a `follow` piped into another program shows each event as it comes).
    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// `2h 05m`, `3m 07s`, `12.5s`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds)
        if whole >= 3600 { return "\(whole / 3600)h " + String(format: "%02dm", (whole % 3600) / 60) }
        if whole >= 60 { return "\(whole / 60)m " + String(format: "%02ds", whole % 60) }
        return String(format: "%.1fs", seconds)
    }
}
