internal import FoundationEssentials

/// The JSON a persisted state is saved as: the state with the version of
/// its type, `{"version":2,"state":{...}}` (the state's keys sorted), so
/// that a later version of the app can tell an old file and migrate it
/// (see ``VersionedState``).
///
/// ```swift
/// let bytes = try StateEnvelope.encode(Settings())
/// let settings = try StateEnvelope.decode(Settings.self, from: bytes)
/// ```
public enum StateEnvelope {
    /// The version `type` saves as: its ``VersionedState/stateVersion``,
    /// else 1.
    public static func version<State>(of type: State.Type) -> Int {
        (type as? any VersionedState.Type)?.stateVersion ?? 1
    }

    /// `state` in an envelope, as compact JSON (UTF-8).
    ///
    /// - Parameters:
    ///   - state: The state to save.
    ///   - version: The version to record; that of `State` when
    ///     `nil` (another one makes an old file, for tests of migrations).
    /// - Throws: `EncodingError` when `state` cannot be encoded (a
    ///   non-finite `Double`, ...).
    public static func encode<State: Encodable>(_ state: State, version: Int? = nil) throws -> [UInt8] {
        // Written around the state by hand so that the version comes first;
        // keys sorted, or they come in hash order, different in each run.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = try encoder.encode(state)
        var bytes = Array(#"{"version":\#(version ?? self.version(of: State.self)),"state":"#.utf8)
        bytes.reserveCapacity(bytes.count + body.count + 1)
        bytes.append(contentsOf: body)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The state in an envelope, migrated from an older version when it is
    /// one.
    ///
    /// - Throws: `DecodingError` when the bytes are not JSON, not an
    ///   envelope, or not a `State`; ``StateEnvelopeError`` when the version
    ///   is newer than `State`'s or older without a migration; what
    ///   ``VersionedState/migrate(_:from:)`` throws.
    public static func decode<State: Decodable>(_ type: State.Type, from bytes: [UInt8]) throws -> State {
        try JSONDecoder().decode(Opened<State>.self, from: Data(bytes)).state
    }

    /// What is wrong with a file that could not be decoded, in a few words
    /// (a `DecodingError`'s own description is a dump of its context).
    static func explain(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "" : " at \(path)"
        }
        switch error {
        case .dataCorrupted(let context):
            return "\(context.debugDescription)\(at(context))"
        case .keyNotFound(let key, let context):
            return "no \"\(key.stringValue)\"\(at(context))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "expected \(type)\(at(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private enum Keys: String, CodingKey {
        case version, state
    }

    /// An envelope being decoded: reads the version first, then decodes the
    /// state directly (same version) or through a migration (older).
    private struct Opened<State: Decodable>: Decodable {
        let state: State

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let saved = try container.decode(Int.self, forKey: .version)
            let current = StateEnvelope.version(of: State.self)
            if saved == current {
                state = try container.decode(State.self, forKey: .state)
                return
            }
            if saved > current {
                throw StateEnvelopeError(.newerVersion, saved: saved, current: current)
            }
            guard let migrating = State.self as? any VersionedState.Type else {
                throw StateEnvelopeError(.noMigration, saved: saved, current: current)
            }
            let old = try container.decode(JSONValue.self, forKey: .state)
            let migrated = try migrating.migrate(old, from: saved)
            state = try JSONDecoder().decode(State.self, from: JSONEncoder().encode(migrated))
        }
    }
}

/// A persisted state whose version cannot be decoded by this version of
/// the app.
public struct StateEnvelopeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which problem it is.
    public enum Code: Sendable, Hashable {
        /// Saved by a newer version of the app (a higher version).
        case newerVersion
        /// Saved with an older version by a type that is not a
        /// ``VersionedState``, so nothing can migrate it.
        case noMigration
    }

    /// Which problem it is.
    public let code: Code
    /// The version in the file.
    public let saved: Int
    /// The version this app's type saves as.
    public let current: Int

    init(_ code: Code, saved: Int, current: Int) {
        self.code = code
        self.saved = saved
        self.current = current
    }

    public var description: String {
        switch code {
        case .newerVersion:
            "saved as version \(saved) by a newer version of the app (this one reads up to version \(current))"
        case .noMigration:
            "saved as version \(saved), and the state type (version \(current)) is not a VersionedState that could migrate it"
        }
    }
}
