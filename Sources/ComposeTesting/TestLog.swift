public import Logging
internal import InMemoryLogging
import Compose
#if canImport(Glibc)
import Glibc
#endif

/// Where a test app's log lines go: into memory, so a test can assert
/// them (``TestApp/logs``, ``TestHost/logs``), and to standard error only
/// when the `COMPOSE_TEST_LOG` environment variable asks for it.
///
/// Diagnostics a test provokes on purpose are its subject, not noise: a
/// test run prints none of them unless asked to.
///
/// ```sh
/// COMPOSE_TEST_LOG=warning swift test    # print warnings and worse, too
/// COMPOSE_TEST_LOG=trace swift test      # print everything
/// ```
///
/// ```swift
/// let app = TestApp(root: Server())
/// app.send(.terminate)
/// #expect(app.logs.contains { $0.message.contains("Shutting down") })
/// ```
public struct TestLog: Sendable {
    /// The environment variable that also prints a test app's log lines:
    /// a level name (`trace` ... `critical`) prints that level and worse;
    /// any other non-empty value prints everything.
    public static let environmentVariable = "COMPOSE_TEST_LOG"

    /// One line of the log.
    public struct Entry: Sendable, Equatable {
        /// Its level.
        public var level: Logger.Level
        /// Its text, interpolations done.
        public var message: String
        /// Its metadata (the logger's and the line's).
        public var metadata: Logger.Metadata
    }

    /// The lines kept so far, oldest first.
    public var entries: [Entry] {
        memory.entries.map { Entry(level: $0.level, message: "\($0.message)", metadata: $0.metadata) }
    }

    private let memory: InMemoryLogHandler

    /// A log that keeps every level (trace and up).
    public init() {
        var memory = InMemoryLogHandler()
        memory.logLevel = .trace
        self.memory = memory
    }

    /// A logger (label `compose`) that writes into this log and, when
    /// `COMPOSE_TEST_LOG` is set, to standard error too.
    public func makeLogger(label: String = "compose") -> Logger {
        let memory = self.memory
        guard let echoLevel = Self.echoLevel() else {
            return Logger(label: label) { _ in memory }
        }
        return Logger(label: label) { label in
            var stream = StreamLogHandler.standardError(label: label)
            stream.logLevel = echoLevel
            return MultiplexLogHandler([memory, stream])
        }
    }

    /// The level `COMPOSE_TEST_LOG` asks to print, or `nil` when unset.
    static func echoLevel() -> Logger.Level? {
        guard let raw = getenv(environmentVariable).map({ String(cString: $0) }), !raw.isEmpty else {
            return nil
        }
        return Logger.Level(rawValue: raw.lowercased()) ?? .trace
    }
}
