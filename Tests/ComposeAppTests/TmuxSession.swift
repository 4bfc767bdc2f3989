import Foundation
import Testing

/// A tmux server of its own (a private socket, no configuration) with one
/// detached 80x24 session running `sh`: what the terminal end-to-end tests
/// type into, capture and resize.
struct TmuxSession {
    /// tmux's path, if it is installed.
    static let path: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    let socket = "compose-test-\(UUID().uuidString.prefix(8))"
    let target = "compose"

    /// Starts the server and the session's shell (prompt `$ `), with
    /// `environment` for the shell.
    init(environment: [String: String] = [:]) async throws {
        var command = "env PS1='$ '"
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { command += " \(name)='\(value)'" }
        command += " sh"
        try await tmux(["new-session", "-d", "-x", "80", "-y", "24", "-s", target, command], capturing: false)
        // Typed before the shell reads, a command is echoed before the
        // prompt (the prompt then lands before the command's first
        // output): wait for the prompt first.
        try await waitForScreen("the shell's prompt") { $0.hasPrefix("$") }
    }

    /// Runs `tmux -L socket -f /dev/null arguments` and returns its output
    /// (standard output and error), through `system(3)`: a command of a few
    /// milliseconds, waited for with `waitpid` on its own process (the tmux
    /// client that starts the server exits at once, the server lives on).
    @discardableResult
    func tmux(_ arguments: [String], capturing: Bool = true) async throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("compose-tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        // Default signal actions for the server and so for the shell and
        // the app (the test runner ignores SIGPIPE, which would survive
        // exec); into a file, since a server this starts keeps the
        // descriptors it was given (a pipe's end would never come).
        let words = ["env", "-u", "TMUX", "--default-signal", "TERM=xterm-256color", Self.path ?? "tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let command = words.map(Self.quoted).joined(separator: " ") + " </dev/null >" + Self.quoted(capturing ? file.path : "/dev/null") + " 2>&1"
        var status = system(command)
        // A client that could not reach the server (a very busy machine)
        // did nothing: try again, twice at most. Not for kill-server, whose
        // server may be gone already.
        var attempts = 1
        while status != 0, status != -1, attempts < 3, arguments.first != "kill-server" {
            // Real time: a busy tmux server and another process's client,
            // with no event to await; a short pause before trying again.
            try await Task.sleep(for: .milliseconds(200))
            status = system(command)
            attempts += 1
        }
        guard status != -1 else { throw TmuxFailure(command: command, status: status) }
        guard capturing else { return "" }
        return String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
    }

    struct TmuxFailure: Error {
        let command: String
        let status: Int32
    }

    /// `text` as one word of `sh`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Types `text` literally.
    func type(_ text: String) async throws {
        try await tmux(["send-keys", "-t", target, "-l", text])
    }

    /// Presses keys by tmux's names (`C-Up`, `Escape`, `Enter`, `M-x`).
    func press(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", target] + keys)
    }

    /// Pastes `text` as the app asked (bracketed when it turned that on).
    func paste(_ text: String) async throws {
        try await tmux(["set-buffer", "-b", "compose", text])
        try await tmux(["paste-buffer", "-p", "-d", "-b", "compose", "-t", target])
    }

    /// The screen's text, wrapped lines joined.
    func capture() async throws -> String {
        try await tmux(["capture-pane", "-p", "-J", "-t", target])
    }

    /// A format of the pane (`#{alternate_on}`).
    func format(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Resizes the window.
    func resize(columns: Int, rows: Int) async throws {
        try await tmux(["resize-window", "-t", target, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Waits until the screen satisfies `condition` (polling tmux, which
    /// has no way to say the screen changed); fails after 20 seconds.
    @discardableResult
    func waitForScreen(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool
    ) async throws -> String {
        if let screen = try await screen(within: 20, condition) { return screen }
        let screen = try await capture()
        Issue.record("The screen never showed \(what). It shows:\n\(screen)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// The screen once it satisfies `condition`, or `nil` after `seconds`
    /// (no issue recorded: for a key that is pressed again when it seems
    /// lost, where pressing it twice is harmless).
    func screen(within seconds: Int, _ condition: (String) -> Bool) async throws -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(seconds)
        while clock.now < deadline {
            let screen = try await capture()
            if condition(screen) { return screen }
            // Real time: the app is another process in a real terminal, and
            // tmux has no way to say its screen changed, so it is polled.
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Waits for `text` on the screen.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await waitForScreen("\"\(text)\"", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Runs `body` with a new session, then ends its server (the shell
    /// and whatever runs in it), also when `body` throws.
    static func run(environment: [String: String] = [:], _ body: (TmuxSession) async throws -> Void) async throws {
        let session = try await TmuxSession(environment: environment)
        do {
            try await body(session)
        } catch {
            await session.kill()
            throw error
        }
        await session.kill()
    }

    /// Ends the server.
    func kill() async {
        _ = try? await tmux(["kill-server"])
    }
}
