import Foundation
import Testing

/// Every ```swift block of README.md and of the DocC articles
/// (Sources/*/*.docc/*.md) must appear, line for line (indentation aside),
/// in one of this folder's test files (Articles/ included) or in an example
/// app under Examples/, so the documentation cannot drift from code that
/// compiles and passes. Blocks that are not Swift code of the package
/// (a manifest, a shell session) are fenced without `swift`.
@Suite struct ReadmeBlocksTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let readme = folder.appendingPathComponent("../../README.md").standardized
    static let examples = folder.appendingPathComponent("../../Examples").standardized
    static let sources = folder.appendingPathComponent("../../Sources").standardized

    /// The Swift files under `directory`, at any depth.
    static func swiftFiles(under directory: URL) -> [URL] {
        var files: [URL] = []
        if let walker = FileManager.default.enumerator(atPath: directory.path) {
            for case let path as String in walker where path.hasSuffix(".swift") {
                files.append(directory.appendingPathComponent(path))
            }
        }
        return files
    }

    /// The Swift files of this folder (and its subfolders) and of every
    /// example app.
    static func sourceFiles() throws -> [URL] {
        swiftFiles(under: folder) + swiftFiles(under: examples)
    }

    /// The articles and landing pages of every DocC catalog.
    static func articles() throws -> [URL] {
        var files: [URL] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let moduleFolder = sources.appendingPathComponent(module)
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: moduleFolder.path) else { continue }
            for catalog in entries where catalog.hasSuffix(".docc") {
                let catalogFolder = moduleFolder.appendingPathComponent(catalog)
                for file in try FileManager.default.contentsOfDirectory(atPath: catalogFolder.path) where file.hasSuffix(".md") {
                    files.append(catalogFolder.appendingPathComponent(file))
                }
            }
        }
        return files.sorted { $0.path < $1.path }
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

    @Test func everySwiftBlockOfTheArticlesIsInATest() throws {
        let sources = try Self.sourceFiles()
            .map { try String(contentsOf: $0, encoding: .utf8) }
            .map(Self.normalized)
            .joined(separator: "\n")
        let articles = try Self.articles()
        #expect(articles.count >= 13, "expected the nine articles and four landing pages, found \(articles.map(\.lastPathComponent))")
        var blockCount = 0
        for article in articles {
            let markdown = try String(contentsOf: article, encoding: .utf8)
            for block in Self.swiftBlocks(in: markdown) {
                blockCount += 1
                let expected = Self.normalized(block)
                #expect(sources.contains(expected), "\(article.lastPathComponent): block not found in Tests/ReadmeSamplesTests or Examples:\n\(block)")
            }
        }
        #expect(blockCount >= 30)
    }
}
