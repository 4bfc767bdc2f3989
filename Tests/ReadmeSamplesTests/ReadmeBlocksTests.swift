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
        #expect(blocks.count >= 1, "the README's taste of the code")
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
        #expect(articles.count >= 18, "expected the fourteen articles and four landing pages, found \(articles.map(\.lastPathComponent))")
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

    /// The tutorial that README.md carried moved into the Tutorial article
    /// whole: its blocks are checked there, by the test above.
    @Test func theTutorialArticleKeepsTheReadmesFormerBlocks() throws {
        let tutorial = Self.sources.appendingPathComponent("ComposeApp/ComposeApp.docc/Tutorial.md")
        let blocks = Self.swiftBlocks(in: try String(contentsOf: tutorial, encoding: .utf8))
        #expect(blocks.count >= 27, "the README's tutorial had 27 Swift blocks, found \(blocks.count)")
    }

    /// The README is the short front door: under 300 lines, and every
    /// article path it names exists.
    @Test func theReadmeIsShortAndItsPathsExist() throws {
        let markdown = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 300, "README.md has \(lines.count) lines")
        let root = Self.readme.deletingLastPathComponent()
        var named = 0
        for match in markdown.matches(of: #/Sources/[A-Za-z]+/[A-Za-z]+\.docc/[A-Za-z]+\.md/#) {
            named += 1
            let path = root.appendingPathComponent(String(match.output)).path
            #expect(FileManager.default.fileExists(atPath: path), "README.md names \(match.output), which does not exist")
        }
        #expect(named >= 10)
    }

    /// Every article of a catalog is linked from its landing page's
    /// topics, so DocC places it (an article nobody links is an orphan).
    @Test func everyArticleIsLinkedFromItsLandingPage() throws {
        for article in try Self.articles() {
            let catalog = article.deletingLastPathComponent()
            let module = catalog.deletingPathExtension().lastPathComponent
            let name = article.deletingPathExtension().lastPathComponent
            guard name != module else { continue }
            let landing = try String(contentsOf: catalog.appendingPathComponent("\(module).md"), encoding: .utf8)
            #expect(landing.contains("<doc:\(name)>"), "\(module).md does not link <doc:\(name)>")
        }
    }
}
