import Foundation
import Testing

/// Runs the OutgoingHTTP demo (built next to this test) as the runtime
/// runs an app, and reads what it printed: the quotes AsyncHTTPClient
/// fetched from the app's own ComposeHTTP server on 127.0.0.1, sent into
/// the tree while the loop's timer kept ticking, and the failure.
@Test(.timeLimit(.minutes(1)))
func anObserverCallsAnHTTPAPIWhileTheTimersKeepTicking() throws {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("OutgoingHTTP")
    let candidates = [executable, Bundle.main.bundleURL.appendingPathComponent("OutgoingHTTP")]
    let demo = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "\(candidates)")
    let process = Process()
    process.executableURL = demo
    // No inspection socket for a test's child.
    process.arguments = ["--inspection", "false"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // A hang guard only: the demo ends by itself in well under a second.
    let guardTimer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: guardTimer)
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guardTimer.cancel()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(text)")

    let lines = text.split(separator: "\n").map(String.init)
    let quotes = lines.filter { $0.hasPrefix("quote at tick ") }
    #expect(quotes.count == 2, "\(text)")
    for line in quotes {
        // The API answered after the timer's fifth tick at the earliest.
        let tick = Int(line.dropFirst("quote at tick ".count).prefix { $0.isNumber }) ?? 0
        #expect(tick >= 5, "\(line)")
        #expect(line.hasSuffix(": Simplicity is prerequisite for reliability."), "\(line)")
    }
    #expect(lines.contains { $0.hasPrefix("failure: 404 from http://127.0.0.1:") && $0.hasSuffix("/nothing") }, "\(text)")
}

/// The article shows the fetcher's code as it is, line for line.
@Test func theArticleShowsTheTestedCode() throws {
    let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let source = try String(contentsOf: example.appendingPathComponent("Sources/OutgoingHTTP/QuoteFetcher.swift"), encoding: .utf8)
    let article = try String(
        contentsOf: example.appendingPathComponent("../../Sources/ComposeHTTP/ComposeHTTP.docc/CallingHTTPAPIs.md").standardizedFileURL,
        encoding: .utf8
    )
    #expect(article.contains("```swift\n" + source + "```\n"), "CallingHTTPAPIs.md no longer shows QuoteFetcher.swift as it is")
}
