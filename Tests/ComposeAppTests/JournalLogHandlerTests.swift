@testable import ComposeApp
import Foundation
import Logging
import Testing

/// Log lines for the systemd journal: the priority of each level, the
/// prefix on every line, and when the runtime uses them.
@Suite struct JournalLogHandlerTests {
    /// What `body` logged through a JournalLogHandler, read back from a
    /// temporary file.
    func journalLines(_ body: (inout Logger) -> Void) throws -> [String] {
        let file = try TemporaryFile("", extension: "log")
        let fd = open(file.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(fd >= 0)
        var logger = Logger(label: "compose") { JournalLogHandler(label: $0, descriptor: fd) }
        body(&logger)
        close(fd)
        return try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func eachLevelMapsToItsSyslogPriority() {
        let priorities = Logger.Level.allCases.map { ($0, JournalLogHandler.priority(of: $0)) }
        #expect(priorities.map(\.1) == [7, 7, 6, 5, 4, 3, 2])
        #expect(priorities.map(\.0) == [.trace, .debug, .info, .notice, .warning, .error, .critical])
    }

    @Test func eachLineStartsWithItsPriorityThenTheStreamHandlersLine() throws {
        let lines = try journalLines { logger in
            logger[metadataKey: "app"] = "chat"
            logger.debug("not at the default level")
            logger.info("listening")
            logger.warning("slow client", metadata: ["peer": "127.0.0.1:5000"])
            logger.critical("disk full")
        }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.map { String($0.prefix(3)) } == ["<6>", "<4>", "<2>"])
        #expect(lines[0].wholeMatch(of: /<6>\S+ info compose: app=chat \[ComposeAppTests\] listening/) != nil, "\(lines[0])")
        #expect(lines[1].hasSuffix(" warning compose: app=chat peer=127.0.0.1:5000 [ComposeAppTests] slow client"), "\(lines[1])")
    }

    @Test func aMessageOfSeveralLinesHasThePrefixOnEachLine() throws {
        let lines = try journalLines { logger in
            logger.error("first\nsecond\nthird")
        }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("<3>") }, "\(lines)")
        #expect(lines.dropFirst().map { $0 } == ["<3>second", "<3>third"])
    }

    @Test func theLevelAndMetadataAreTheHandlers() {
        var handler = JournalLogHandler(label: "x", descriptor: -1)
        handler.logLevel = .debug
        handler[metadataKey: "a"] = "1"
        #expect(handler.logLevel == .debug)
        #expect(handler.metadata == ["a": "1"])
        handler.metadata = [:]
        #expect(handler[metadataKey: "a"] == nil)
    }

    @Test func aJournalStreamMatchesTheDescriptorItNamesOnly() throws {
        let one = try TemporaryFile("")
        let other = try TemporaryFile("")
        let fd = open(one.path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        let stream = try #require(JournalStream(descriptor: fd))
        var info = stat()
        stat(other.path, &info)
        #expect(stream.matches(descriptor: fd))
        #expect(JournalStream(parsing: "\(stream.device):\(stream.inode)") == stream)
        #expect(!JournalStream(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)).matches(descriptor: fd))
        #expect(JournalStream(descriptor: -1) == nil)
        #expect(!stream.matches(descriptor: -1))
    }

    @Test func theRuntimeUsesTheJournalHandlerOnlyForTheJournalAndNeverInsteadOfTheAppsOwn() {
        #expect(StartupConfiguration().makeLogger(logsToJournal: true).handler is JournalLogHandler)
        #expect(!(StartupConfiguration().makeLogger(logsToJournal: false).handler is JournalLogHandler))
        #expect(!(StartupConfiguration().makeLogger().handler is JournalLogHandler))
        #expect(!(StartupConfiguration(journalPriorityPrefixes: false).makeLogger(logsToJournal: true).handler is JournalLogHandler))
        let own = StartupConfiguration(makeLogHandler: { StreamLogHandler.standardOutput(label: $0) })
        #expect(own.makeLogger(logsToJournal: true).handler is StreamLogHandler)
    }
}
