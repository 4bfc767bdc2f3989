import Foundation
import Testing

/// `compose new` for real: the generated package builds with no warnings,
/// its tests pass, and the app starts and stops gracefully. Slow (each
/// package builds Compose from scratch), so the kinds run one after the
/// other.
@Suite(.serialized) struct EndToEndTests {
    @Test(.timeLimit(.minutes(20)), arguments: ["app", "daemon"])
    func aNewProjectBuildsTestsRunsAndShutsDown(_ kind: String) throws {
        let folder = try ToolPaths.temporaryFolder()
        let name = kind == "app" ? "Notes" : "Echo"
        let created = try ToolRun.run(ToolPaths.compose, ["new", name, "--kind", kind, "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(created.status == 0, "\(created.errors)")
        let project = folder.appendingPathComponent(name)
        let swift = URL(fileURLWithPath: "/usr/bin/env")

        let build = try ToolRun.run(swift, ["swift", "build"], in: project)
        #expect(build.status == 0, "\(build.output)\n\(build.errors)")
        let warnings = (build.output + build.errors).split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")

        let test = try ToolRun.run(swift, ["swift", "test"], in: project)
        #expect(test.status == 0, "\(test.output)\n\(test.errors)")

        // Start the app, wait for its startup line, then SIGTERM it.
        let process = Process()
        process.executableURL = project.appendingPathComponent(".build/debug/\(name)")
        process.currentDirectoryURL = project
        var environment = ProcessInfo.processInfo.environment
        environment["PORT"] = "0"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let input = Pipe()
        process.standardInput = input
        let lines = LineWaiter(output.fileHandleForReading)
        try process.run()
        #expect(lines.wait(for: "Welcome to \(name)!"))
        if kind == "daemon" {
            #expect(lines.wait(for: "Listening on 127.0.0.1:"))
        } else {
            #expect(lines.wait(for: "Home (visit 1)"))
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Collects a child's output lines and waits for one (event-driven: the
/// pipe's readability handler signals every new chunk).
final class LineWaiter: @unchecked Sendable {
    // @unchecked Sendable: `text` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var text = ""

    init(_ handle: FileHandle) {
        handle.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.condition.lock()
            if data.isEmpty {
                handle.readabilityHandler = nil
            } else {
                self.text += String(decoding: data, as: UTF8.self)
            }
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    /// Waits until the output contains `fragment`; `false` after `timeout`.
    func wait(for fragment: String, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !text.contains(fragment) {
            if !condition.wait(until: deadline) { return text.contains(fragment) }
        }
        return true
    }
}
