public import Configuration
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON configuration file, parsed with FoundationEssentials'
/// `JSONDecoder`.
///
/// swift-configuration's own `JSONSnapshot` parses with
/// `JSONSerialization`, which needs all of Foundation (and ICU): linked
/// into every app, it would add about 6 MiB to each one's memory. This one
/// reads the same files the same way: nested objects are dotted keys
/// (`{"http": {"port": 80}}` is `http.port`), an array holds strings or
/// numbers, `null` is no value, and a number or a Boolean reads as an
/// `Int`, a `Double` or a `Bool` when it converts exactly.
///
/// ```swift
/// let snapshot = try JSONConfigSnapshot(data: bytes.span.bytes, providerName: "file", parsingOptions: .default)
/// ```
public struct JSONConfigSnapshot: Sendable {
    /// How values are read.
    public struct ParsingOptions: FileParsingOptions {
        /// Turns a string into bytes, for `bytes` values.
        public var bytesDecoder: any ConfigBytesFromStringDecoder
        /// Which values are secrets (redacted in logs and `--help`).
        public var secretsSpecifier: SecretsSpecifier<String, String>

        /// - Parameters:
        ///   - bytesDecoder: Turns a string into bytes (base64 by default).
        ///   - secretsSpecifier: Which values are secrets (none by default).
        public init(
            bytesDecoder: some ConfigBytesFromStringDecoder = .base64,
            secretsSpecifier: SecretsSpecifier<String, String> = .none
        ) {
            self.bytesDecoder = bytesDecoder
            self.secretsSpecifier = secretsSpecifier
        }

        /// Base64 bytes, no secret.
        public static var `default`: Self { Self() }
    }

    /// A value of the file, by its dotted key.
    enum Value: Sendable, Equatable {
        case string(String)
        case number(Number)
        case strings([String])
        case numbers([Number])
        case emptyArray
    }

    /// A JSON number or Boolean, as written.
    enum Number: Sendable, Equatable {
        case bool(Bool)
        case int(Int)
        case double(Double)
    }

    /// The name access logs and `--help` give the file (`file PATH`).
    public let providerName: String
    let values: [String: (value: Value, isSecret: Bool)]
    let bytesDecoder: any ConfigBytesFromStringDecoder
}

extension JSONConfigSnapshot: FileConfigSnapshot {
    /// Parses `data`, a JSON object.
    ///
    /// - Throws: ``ConfigurationError`` when the data is not JSON, not an
    ///   object, or holds an array of objects, arrays or mixed kinds.
    public init(data: RawSpan, providerName: String, parsingOptions: ParsingOptions) throws {
        let bytes = data.withUnsafeBytes { Data($0) }
        let root: JSONTree
        do {
            root = try JSONDecoder().decode(JSONTree.self, from: bytes)
        } catch {
            throw ConfigurationError("not valid JSON (\(Self.reason(error)))")
        }
        guard case .object(let members) = root else {
            throw ConfigurationError("the top level is not a JSON object")
        }
        var values: [String: (value: Value, isSecret: Bool)] = [:]
        var pending: [([String], JSONTree)] = members.map { ([$0.key], $0.value) }
        while let (path, tree) = pending.popLast() {
            let key = path.joined(separator: ".")
            let value: Value
            switch tree {
            case .null: continue
            case .object(let members):
                pending += members.map { (path + [$0.key], $0.value) }
                continue
            case .string(let string): value = .string(string)
            case .number(let number): value = .number(number)
            case .array(let elements): value = try Self.array(elements, key: key)
            }
            let text: String = if case .string(let string) = value { string } else { "" }
            values[key] = (value, parsingOptions.secretsSpecifier.isSecret(key: key, value: text))
        }
        self.providerName = providerName
        self.values = values
        bytesDecoder = parsingOptions.bytesDecoder
    }

    private static func array(_ elements: [JSONTree], key: String) throws -> Value {
        guard let first = elements.first else { return .emptyArray }
        if case .string = first {
            return .strings(try elements.map {
                guard case .string(let string) = $0 else { throw ConfigurationError("\(key): an array mixes strings with other values") }
                return string
            })
        }
        return .numbers(try elements.map {
            guard case .number(let number) = $0 else { throw ConfigurationError("\(key): an array holds something other than strings, numbers or Booleans") }
            return number
        })
    }

    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            return context.underlyingError.map { "\($0)" } ?? context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

extension JSONConfigSnapshot: ConfigSnapshot {
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let encoded = key.components.joined(separator: ".")
        guard let (value, isSecret) = values[encoded] else { return LookupResult(encodedKey: encoded, value: nil) }
        guard let content = content(of: value, as: type) else {
            throw ConfigurationError("\(encoded) is not \(type.rawValue)")
        }
        return LookupResult(encodedKey: encoded, value: ConfigValue(content, isSecret: isSecret))
    }

    private func content(of value: Value, as type: ConfigType) -> ConfigContent? {
        switch (type, value) {
        case (.string, .string(let string)): .string(string)
        case (.int, .number(let number)): number.int.map(ConfigContent.int)
        case (.double, .number(let number)): number.double.map(ConfigContent.double)
        case (.bool, .number(let number)): .bool(number.bool)
        case (.bytes, .string(let string)): bytesDecoder.decode(string).map(ConfigContent.bytes)
        case (.stringArray, .emptyArray): .stringArray([])
        case (.stringArray, .strings(let strings)): .stringArray(strings)
        case (.intArray, .emptyArray): .intArray([])
        case (.intArray, .numbers(let numbers)): Self.all(numbers.map(\.int)).map(ConfigContent.intArray)
        case (.doubleArray, .emptyArray): .doubleArray([])
        case (.doubleArray, .numbers(let numbers)): Self.all(numbers.map(\.double)).map(ConfigContent.doubleArray)
        case (.boolArray, .emptyArray): .boolArray([])
        case (.boolArray, .numbers(let numbers)): .boolArray(numbers.map(\.bool))
        case (.byteChunkArray, .emptyArray): .byteChunkArray([])
        case (.byteChunkArray, .strings(let strings)): Self.all(strings.map(bytesDecoder.decode)).map(ConfigContent.byteChunkArray)
        default: nil
        }
    }

    private static func all<T>(_ values: [T?]) -> [T]? {
        var result: [T] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let value else { return nil }
            result.append(value)
        }
        return result
    }
}

extension JSONConfigSnapshot: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "\(providerName)[\(values.count) values]" }

    public var debugDescription: String {
        let shown = values.keys.sorted().map { key in
            let (value, isSecret) = values[key]!
            return "\(key)=\(isSecret ? "<REDACTED>" : "\(value)")"
        }
        return "\(providerName)[\(values.count) values: \(shown.joined(separator: ", "))]"
    }
}

extension JSONConfigSnapshot.Number {
    var int: Int? {
        switch self {
        case .bool(let bool): bool ? 1 : 0
        case .int(let int): int
        case .double(let double): Int(exactly: double)
        }
    }

    var double: Double? {
        switch self {
        case .bool(let bool): bool ? 1 : 0
        case .int(let int): Double(exactly: int)
        case .double(let double): double
        }
    }

    var bool: Bool {
        switch self {
        case .bool(let bool): bool
        case .int(let int): int != 0
        case .double(let double): double != 0
        }
    }
}

/// Any JSON value, as `JSONDecoder` reads it.
private enum JSONTree: Decodable {
    case null
    case string(String)
    case number(JSONConfigSnapshot.Number)
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .number(.bool(bool))
        } else if let int = try? container.decode(Int.self) {
            self = .number(.int(int))
        } else if let double = try? container.decode(Double.self) {
            self = .number(.double(double))
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONTree].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }
}
