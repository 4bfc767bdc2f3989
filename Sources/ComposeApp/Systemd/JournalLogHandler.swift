public import Logging
#if canImport(Glibc)
internal import Glibc
#endif

/// A log handler for standard error connected to the systemd journal: each
/// line is swift-log's `StreamLogHandler` line preceded by its syslog
/// priority, `<N>`, which journald stores as the entry's priority (so
/// `journalctl -p warning` shows warnings and worse, in colour).
///
/// ```
/// <6>2025-01-31T10:00:00+0000 info compose: app=chat [ComposeApp] Shutting down (SIGTERM).
/// ```
///
/// The runtime uses it instead of the default handler when
/// `$JOURNAL_STREAM` names the app's standard error (see
/// ``StartupConfiguration/journalPriorityPrefixes``); anywhere else lines
/// stay plain. A message of several lines gets the prefix on each, as
/// journald reads every line as an entry.
public struct JournalLogHandler: LogHandler {
    /// One formatting handler per priority, 2 to 7, whose stream writes
    /// that priority's prefix: made once, so that a line costs what a
    /// `StreamLogHandler` line costs (their metadata and level are kept
    /// equal, and are this handler's).
    private var formats: [StreamLogHandler]

    /// A handler writing to `descriptor` (standard error by default), with
    /// swift-log's global metadata provider.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - descriptor: Where lines are written (`write(2)`, one call per
    ///     line, so lines of several threads do not interleave); 2 is
    ///     standard error.
    public init(label: String, descriptor: Int32 = 2) {
        formats = (2...7).map { priority in
            StreamLogHandler(label: label, stream: JournalLine(prefix: "<\(priority)>", descriptor: descriptor))
        }
    }

    /// The syslog priority journald files a line of `level` under:
    /// critical 2 (`crit`), error 3 (`err`), warning 4, notice 5, info 6,
    /// debug and trace 7 (`debug`).
    public static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .critical: 2
        case .error: 3
        case .warning: 4
        case .notice: 5
        case .info: 6
        case .debug, .trace: 7
        }
    }

    public func log(event: LogEvent) {
        formats[Self.priority(of: event.level) - 2].log(event: event)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { formats[0][metadataKey: key] }
        set { for index in formats.indices { formats[index][metadataKey: key] = newValue } }
    }

    public var metadata: Logger.Metadata {
        get { formats[0].metadata }
        set { for index in formats.indices { formats[index].metadata = newValue } }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { formats[0].metadataProvider }
        set { for index in formats.indices { formats[index].metadataProvider = newValue } }
    }

    public var logLevel: Logger.Level {
        get { formats[0].logLevel }
        set { for index in formats.indices { formats[index].logLevel = newValue } }
    }
}

/// The stream of one log line: `prefix` before it and before each line it
/// continues on, written to `descriptor` in one `write(2)`.
private struct JournalLine: TextOutputStream, Sendable {
    let prefix: String
    let descriptor: Int32

    mutating func write(_ string: String) {
        var text = prefix
        text.reserveCapacity(string.utf8.count + prefix.utf8.count)
        // The usual line, one newline at its end, is appended whole.
        var rest = Substring(string)
        while let newline = rest.utf8.firstIndex(of: UInt8(ascii: "\n")), rest.utf8.index(after: newline) != rest.endIndex {
            let next = rest.utf8.index(after: newline)
            text += rest[..<next]
            text += prefix
            rest = rest[next...]
        }
        text += rest
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                // Nowhere to report a log line that cannot be written.
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
