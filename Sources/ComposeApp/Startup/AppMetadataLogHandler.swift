import Logging

/// The app's log handler: another handler, with the app's own metadata
/// (`app`, and `worker` in the workers mode) added to each line as it is
/// logged, rather than set on the handler at startup.
///
/// Setting metadata on swift-log's `StreamLogHandler` builds its metadata
/// dictionary and its printed form at once: about 340 thousand
/// instructions at every app's startup (its first `String`-keyed
/// dictionary, whose type the runtime makes then), and the code pages
/// behind them in the app's memory, for a daemon that may log nothing
/// before its first connection (docs/footprint.md). Here that happens at
/// the first line logged. The line reads the same: the metadata a line or
/// the handler has under the same key wins, as a handler's own metadata
/// would.
struct AppMetadataLogHandler: LogHandler {
    /// The handler the lines go to.
    var wrapped: any LogHandler
    /// The app's metadata, in order.
    let appMetadata: [(key: String, value: Logger.MetadataValue)]

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    /// The handler's metadata and the app's.
    var metadata: Logger.Metadata {
        get {
            var metadata = wrapped.metadata
            for (key, value) in appMetadata where metadata[key] == nil { metadata[key] = value }
            return metadata
        }
        set { wrapped.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] ?? appMetadata.first { $0.key == key }?.value }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        var metadata = event.metadata ?? [:]
        for (key, value) in appMetadata where metadata[key] == nil && wrapped[metadataKey: key] == nil {
            metadata[key] = value
        }
        event.metadata = metadata
        wrapped.log(event: event)
    }
}

extension Logger {
    /// This logger, its lines carrying `metadata` too (see
    /// ``AppMetadataLogHandler``).
    func addingAppMetadata(_ metadata: [(key: String, value: Logger.MetadataValue)]) -> Logger {
        var logger = self
        logger.handler = AppMetadataLogHandler(wrapped: handler, appMetadata: metadata)
        return logger
    }
}
