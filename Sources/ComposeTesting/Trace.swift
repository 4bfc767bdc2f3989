public import ComposePersistence
import FoundationEssentials

/// A trace recorded by ComposeApp's `TraceRecorder`: the sends of chosen
/// emitters of a running app, in order, with their values as JSON. Read
/// one to replay it into a ``TestApp`` (``TestApp/replay(_:inputs:)``).
///
/// ```swift
/// let trace = try Trace(contentsOf: "Tests/Traces/stepper.jsonl")
/// #expect(trace.entries.count == 12)
/// ```
public struct Trace: Sendable, Hashable {
    /// The recorded app's name.
    public var app: String
    /// The paths it recorded (empty: every emitter).
    public var paths: [String]
    /// The sends, in the order they happened.
    public var entries: [Entry]

    /// One recorded send: a line of the file.
    public struct Entry: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Seconds since the recording began.
        public var time: Double
        /// The emitter's event path (`stepper-app.commands`).
        public var path: String
        /// The value, described; `nil` for a signal.
        public var text: String?
        /// The value as JSON; `nil` for a signal and for a value that is
        /// not `Encodable` (then only ``text`` says what it was).
        public var value: JSONValue?

        /// - Parameters: as the properties.
        public init(time: Double, path: String, text: String? = nil, value: JSONValue? = nil) {
            self.time = time
            self.path = path
            self.text = text
            self.value = value
        }

        /// `0.25s stepper-app.shown "count: 1"`: the value as JSON when
        /// there is one, else its text.
        public var description: String {
            var line = "\(Self.format(time))s \(path)"
            if let value { line += " " + Trace.canonical(value) } else if let text { line += " (\(text))" }
            return line
        }

        /// Whether `other` is the same send: the same path, and the same
        /// value (as JSON when both have one, else as text). Times are not
        /// compared.
        public func isSameSend(as other: Entry) -> Bool {
            guard path == other.path else { return false }
            if let value, let otherValue = other.value { return value == otherValue }
            return text == other.text
        }

        private static func format(_ seconds: Double) -> String {
            let millis = (seconds * 1000).rounded()
            return millis.truncatingRemainder(dividingBy: 1000) == 0 ? "\(Int(millis) / 1000)" : "\(millis / 1000)"
        }
    }

    /// A trace of `entries`.
    public init(app: String, paths: [String], entries: [Entry]) {
        self.app = app
        self.paths = paths
        self.entries = entries
    }

    /// Reads a trace file.
    ///
    /// - Throws: ``TraceError`` when the file cannot be read or a line is
    ///   not a trace line (naming the line).
    public init(contentsOf file: String) throws(TraceError) {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw TraceError("Cannot read the trace \(file): \(error)")
        }
        try self.init(jsonLines: text, name: file)
    }

    /// Parses a trace's text (JSON Lines).
    ///
    /// - Throws: ``TraceError`` naming the first line that is not a trace
    ///   line.
    public init(jsonLines text: String, name: String = "trace") throws(TraceError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { throw TraceError("\(name) is empty: no trace header.") }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: Data(first.utf8)), header.version == 1 else {
            throw TraceError("\(name), line 1, is not a trace header (compose-trace 1): \(first.prefix(120))")
        }
        app = header.app
        paths = header.paths
        entries = []
        for (index, line) in lines.dropFirst().enumerated() {
            do {
                entries.append(try decoder.decode(Entry.self, from: Data(line.utf8)))
            } catch {
                throw TraceError("\(name), line \(index + 2), is not a trace entry (\(error)): \(line.prefix(120))")
            }
        }
    }

    private struct Header: Decodable {
        var version: Int
        var app: String
        var paths: [String]

        enum CodingKeys: String, CodingKey {
            case version = "compose-trace"
            case app, paths
        }
    }

    /// `value` as compact JSON with sorted keys.
    static func canonical(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}

/// A trace that cannot be read or replayed, with what went wrong.
public struct TraceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
