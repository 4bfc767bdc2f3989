import Foundation
import Testing

/// `compose new` for real: the generated package builds with no warnings,
/// its tests pass, and the app starts and stops gracefully. Slow: the
/// first package builds Compose and its dependencies from scratch. Both
/// kinds run in one test, one after the other, and build in one scratch
/// path, so the second reuses what the first built of Compose (its own
/// modules still compile fresh, and their warnings still count). In a
/// full `make test` on two cores this, the suite's longest test, went from
/// 158 s (each kind in a scratch path of its own) to 66 s. The third
/// package, a daemon made with `--http --container`, compiles ComposeHTTP
/// and swift-http-types besides: in `make test` on the busy 2-core machine
/// (2026-11-28) the test took 178 s with it, against 118 s for two kinds
/// in main's last run, and is still what the whole run waits for. The fourth,
/// a terminal app (`--kind terminal`), adds ComposeTerminal and
/// ComposeTerminalTesting: 433 s in a `make test` on the 2-core machine
/// shared with three other builds (2026-11-28 12:00 UTC).
@Suite struct EndToEndTests {
    @Test(.timeLimit(.minutes(20)))
    func aNewProjectOfEachKindBuildsTestsRunsAndShutsDown() throws {
        let scratch = try ToolPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for kind in ["app", "daemon", "http", "terminal"] {
            try buildTestRunAndShutDown(kind, scratch: scratch)
        }
    }

    /// `kind` is `app`, `daemon`, `terminal` (named Panel: run with its
    /// output on a pipe, it prints its screen as plain lines), or `http` (a
    /// daemon made with `--http --container`, named Web: its HTTP server is
    /// asked over a real socket).
    private func buildTestRunAndShutDown(_ kind: String, scratch: URL) throws {
        let folder = try ToolPaths.temporaryFolder()
        let name = ["app": "Notes", "daemon": "Echo", "http": "Web", "terminal": "Panel"][kind] ?? kind
        let persists = kind == "app" || kind == "terminal"
        let options = kind == "http" ? ["--http", "--container"] : ["--kind", kind]
        let created = try ToolRun.run(ToolPaths.compose, ["new", name, "--compose-path", ToolPaths.checkout.path] + options, in: folder)
        #expect(created.status == 0, "\(created.errors)")
        let project = folder.appendingPathComponent(name)
        let swift = URL(fileURLWithPath: "/usr/bin/env")
        if kind == "app" {
            // Every variant of a component compiles in the app, two of them
            // added to their parent by the tool.
            for arguments in [
                ["Profile", "--parent", "Sources/Notes/Components/Home"], ["Settings", "--router"],
                ["Editor", "--lazy", "--in", "Home", "--parent", "Sources/Notes/Components/Home/Home.swift"],
            ] {
                let added = try ToolRun.run(ToolPaths.compose, ["component"] + arguments, in: project)
                #expect(added.status == 0, "\(added.errors)")
            }
        }

        let build = try ToolRun.run(swift, ["swift", "build", "--scratch-path", scratch.path], in: project)
        #expect(build.status == 0, "\(kind): \(build.output)\n\(build.errors)")
        let warnings = (build.output + build.errors).split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")

        let test = try ToolRun.run(swift, ["swift", "test", "--scratch-path", scratch.path], in: project)
        #expect(test.status == 0, "\(kind): \(test.output)\n\(test.errors)")

        // Start the app, wait for its startup line, then SIGTERM it; the
        // app kinds save their visits, so a second run goes on counting.
        let state = folder.appendingPathComponent("state")
        for run in persists ? [1, 2] : [1] {
            let process = Process()
            process.executableURL = scratch.appendingPathComponent("debug/\(name)")
            process.currentDirectoryURL = project
            var environment = ProcessInfo.processInfo.environment
            // The app's name is its variables' prefix: ECHO_PORT.
            environment["\(name.uppercased())_PORT"] = "0"
            environment["\(name.uppercased())_HTTP_PORT"] = "0"
            environment["XDG_STATE_HOME"] = state.path
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            // The daemon logs (standard error) what it does.
            process.standardError = output
            let input = Pipe()
            process.standardInput = input
            let lines = LineWaiter(output.fileHandleForReading)
            try process.run()
            #expect(lines.wait(for: "Welcome to \(name)!"), "\(lines.output)")
            if kind == "daemon" {
                #expect(lines.wait(for: "Listening on 127.0.0.1:"), "\(lines.output)")
                #expect(lines.output.contains("app=echo"), "\(lines.output)")
            } else if kind == "http" {
                #expect(lines.wait(for: "HTTP on 127.0.0.1:"), "\(lines.output)")
                try askTheHTTPServer(lines.output)
            } else {
                #expect(lines.wait(for: "Home (visit \(run))"), "\(lines.output)")
            }
            if kind == "terminal" {
                // Not a terminal: plain lines, not one escape sequence.
                #expect(!lines.output.contains("\u{1B}"), "\(lines.output)")
            }
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(lines.waitForEnd(), "\(lines.output)")
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }
        if persists {
            #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("\(name)/home.json").path))
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// curl asks the running `--http` daemon (its port read from its log
    /// line `HTTP on 127.0.0.1:PORT`) for its route and health endpoints,
    /// on one keep-alive connection.
    private func askTheHTTPServer(_ log: String) throws {
        let line = try #require(log.split(separator: "\n").first { $0.contains("HTTP on 127.0.0.1:") })
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let base = "http://127.0.0.1:\(port)"
        let curl = try ToolRun.run(
            URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-w", "%{http_code}\n", "\(base)/hello/you", "\(base)/healthz", "\(base)/readyz"],
            in: FileManager.default.temporaryDirectory
        )
        #expect(curl.output == "Hello, you, from Web!\n200\nok\n200\nready\n200\n", "\(curl.output)\n\(curl.errors)")
    }
}

/// Collects a child's output and waits for a fragment of it. A thread of
/// its own, blocked in `read(2)`, appends each chunk and wakes the waiters,
/// until end of output; nothing reads the pipe after ``waitForEnd(timeout:)``
/// returned `true`, so nothing outlives the test.
///
/// (A `readabilityHandler` raced: its dispatch source read on a queue of
/// its own, was never cleared when the waiter went first, and could fire
/// after the test released the pipe, on a descriptor that another test may
/// have reopened by then.)
final class LineWaiter: @unchecked Sendable {
    // @unchecked Sendable: `text` and `ended` are only touched with
    // `condition` locked.
    private let condition = NSCondition()
    private var text = ""
    private var ended = false

    init(_ handle: FileHandle) {
        // The thread keeps the handle (and so the descriptor) open until it
        // has read the end of output.
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                condition.lock()
                if count > 0 {
                    text += String(decoding: buffer[0..<count], as: UTF8.self)
                } else {
                    ended = true
                }
                condition.broadcast()
                condition.unlock()
                if count <= 0 { return }
            }
        }
        thread.start()
    }

    /// Waits until the output contains `fragment`; `false` if the output
    /// ended without it or `timeout` passed.
    func wait(for fragment: String, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !text.contains(fragment), !ended {
            if !condition.wait(until: deadline) { break }
        }
        return text.contains(fragment)
    }

    /// Waits for the end of output (every writer closed the pipe); `false`
    /// after `timeout`.
    func waitForEnd(timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !ended {
            if !condition.wait(until: deadline) { break }
        }
        return ended
    }

    /// Everything read so far.
    var output: String {
        condition.lock()
        defer { condition.unlock() }
        return text
    }
}
