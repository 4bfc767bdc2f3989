@testable import ComposeApp
import Logging
import Synchronization
import Testing

/// The app's `app=` and `worker=` metadata are added to each line as it is
/// logged (not set on the handler at startup: docs/footprint.md), and read
/// as the handler's own metadata would.
@Suite struct AppMetadataLogHandlerTests {
    @Test func everyLineCarriesTheAppsMetadataAndALinesOwnWins() {
        let recorded = RecordingLines()
        var logger = Logger(label: "test") { _ in recorded.handler() }
            .addingAppMetadata([("app", "chat"), ("worker", "2")])
        logger.info("plain")
        logger.info("own", metadata: ["app": "other", "peer": "127.0.0.1:5000"])
        logger[metadataKey: "worker"] = "7"
        logger.info("handler's own")
        #expect(recorded.lines == [
            ["app": "chat", "worker": "2"],
            ["app": "other", "worker": "2", "peer": "127.0.0.1:5000"],
            ["app": "chat", "worker": "7"],
        ])
        // Read back as the handler's own metadata.
        #expect(logger[metadataKey: "app"] == "chat")
        #expect(logger.handler.metadata == ["app": "chat", "worker": "7"])
    }

    @Test func theLevelIsTheWrappedHandlers() {
        let recorded = RecordingLines()
        var logger = Logger(label: "test") { _ in recorded.handler() }.addingAppMetadata([("app", "chat")])
        logger.logLevel = .error
        logger.info("dropped")
        logger.error("kept")
        #expect(recorded.lines == [["app": "chat"]])
    }
}

/// The lines a ``AppMetadataLogHandlerTests/RecordingHandler`` records,
/// shared with the test.
final class RecordingLines: Sendable {
    private let storage = Mutex<[Logger.Metadata]>([])

    var lines: [Logger.Metadata] { storage.withLock { $0 } }

    func handler() -> some LogHandler {
        Handler(lines: self)
    }

    private struct Handler: LogHandler {
        let lines: RecordingLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, line in line }
            lines.storage.withLock { $0.append(merged) }
        }
    }
}
