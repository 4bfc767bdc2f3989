public import ComposeApp
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ConfigFileFormat {
    /// A JSON configuration file, parsed with FoundationEssentials'
    /// `JSONDecoder`:
    ///
    /// ```swift
    /// import ComposeConfiguration
    ///
    /// StartupConfiguration(config: ConfigOptions(fileFormat: .json))
    /// ```
    ///
    /// The top level is an object; nested objects are dotted keys
    /// (`{"http": {"port": 80}}` is `http.port`), `null` is no value, an
    /// array holds strings, numbers or Booleans (one kind), and a number
    /// reads as an `Int` or a `Double` when it converts exactly.
    public static let json = ConfigFileFormat(name: "JSON") { bytes, _ in
        try JSONConfigFile.parse(bytes)
    }
}

/// The JSON file format's parsing: a tree decoded by `JSONDecoder`, then
/// flattened into values by dotted key.
enum JSONConfigFile {
    static func parse(_ bytes: [UInt8]) throws -> [String: AppConfiguration.Value] {
        let root: JSONTree
        do {
            root = try JSONDecoder().decode(JSONTree.self, from: Data(bytes))
        } catch {
            throw ConfigurationError("not valid JSON (\(reason(error)))")
        }
        guard case .object(let members) = root else {
            throw ConfigurationError("the top level is not a JSON object")
        }
        var values: [String: AppConfiguration.Value] = [:]
        var pending: [([String], JSONTree)] = members.map { ([$0.key], $0.value) }
        while let (path, tree) = pending.popLast() {
            let key = path.joined(separator: ".")
            switch tree {
            case .null: continue
            case .object(let members): pending += members.map { (path + [$0.key], $0.value) }
            case .string(let string): values[key] = .string(string)
            case .bool(let bool): values[key] = .bool(bool)
            case .int(let int): values[key] = .int(int)
            case .double(let double): values[key] = .double(double)
            case .array(let elements): values[key] = try array(elements, key: key)
            }
        }
        return values
    }

    private static func array(_ elements: [JSONTree], key: String) throws -> AppConfiguration.Value {
        var strings: [String] = []
        var bools: [Bool] = []
        var ints: [Int] = []
        var doubles: [Double] = []
        for element in elements {
            switch element {
            case .string(let string): strings.append(string)
            case .bool(let bool): bools.append(bool)
            case .int(let int):
                ints.append(int)
                doubles.append(Double(int))
            case .double(let double): doubles.append(double)
            case .null, .array, .object:
                throw ConfigurationError("\(key): an array holds something other than strings, numbers or Booleans")
            }
        }
        if strings.count == elements.count { return .stringArray(strings) }
        if bools.count == elements.count { return .boolArray(bools) }
        if ints.count == elements.count { return .intArray(ints) }
        if doubles.count == elements.count { return .doubleArray(doubles) }
        throw ConfigurationError("\(key): an array mixes strings, numbers and Booleans")
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

/// Any JSON value, as `JSONDecoder` reads it.
private enum JSONTree: Decodable {
    case null
    case string(String)
    case bool(Bool)
    case int(Int)
    case double(Double)
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONTree].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }
}
