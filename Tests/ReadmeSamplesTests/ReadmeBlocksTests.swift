import Foundation
import Testing

/// Every ```swift block of README.md must appear, line for line (indentation
/// aside), in one of this folder's test files or in an example app under
/// Examples/, so the README cannot drift from code that compiles and passes.
@Suite struct ReadmeBlocksTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let readme = folder.appendingPathComponent("../../README.md").standardized
    static let examples = folder.appendingPathComponent("../../Examples").standardized

    /// The Swift files of this folder and of every example app.
    static func sourceFiles() throws -> [URL] {
        var files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") }
            .map { folder.appendingPathComponent($0) }
        if let walker = FileManager.default.enumerator(atPath: examples.path) {
            for case let path as String in walker where path.hasSuffix(".swift") {
                files.append(examples.appendingPathComponent(path))
            }
        }
        return files
    }

    static func normalized(_ text: some StringProtocol) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everySwiftBlockOfTheReadmeIsInATest() throws {
        let markdown = try String(contentsOf: Self.readme, encoding: .utf8)
        let sources = try Self.sourceFiles()
            .map { try String(contentsOf: $0, encoding: .utf8) }
            .map(Self.normalized)
            .joined(separator: "\n")
        let blocks = Self.swiftBlocks(in: markdown)
        #expect(blocks.count >= 5)
        for block in blocks {
            let expected = Self.normalized(block)
            #expect(sources.contains(expected), "README block not found in Tests/ReadmeSamplesTests or Examples:\n\(block)")
        }
    }
}
