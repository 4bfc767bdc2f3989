import Foundation
import Testing

/// StandardInput reading a pipe.
@Suite struct StandardInputTests {
    @Test func linesArriveWithoutTheirEndingsAndAFinalPartialLineBeforeTheEnd() async throws {
        let app = try FixtureProcess("stdin")
        try app.writeStdin("a\n")
        try await app.waitFor("line: a")
        try app.writeStdin("b\r\n")
        try app.writeStdin("partial")
        try await app.waitFor("line: b")
        // The partial line waits for its newline or the end of input.
        #expect(!app.output.lines.contains("line: partial"), "\(app.transcript)")
        try app.closeStdin()

        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        let echoed = app.output.lines.filter { $0.hasPrefix("line: ") || $0 == "end" }
        #expect(echoed == ["line: a", "line: b", "line: partial", "end"], "\(app.transcript)")
    }
}

/// StandardInput reading a regular file (libuv cannot poll one; the runtime
/// reads it with uv_fs_read).
@Suite struct RedirectedStandardInputTests {
    @Test func aRedirectedFileIsReadToTheEndLineByLine() async throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("compose-stdin-\(UUID().uuidString).txt")
        try Data("first\nsecond\r\nlast".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let app = try FixtureProcess("stdin", inputFile: file)
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        let echoed = app.output.lines.filter { $0.hasPrefix("line: ") || $0 == "end" }
        #expect(echoed == ["line: first", "line: second", "line: last", "end"], "\(app.transcript)")
    }
}
