/// A JSON document as a value: what a ``VersionedState`` migration reads
/// and rewrites.
///
/// ```swift
/// var state: JSONValue = ["size": 12, "tags": ["a", "b"]]
/// state["fontSize"] = state["size"]
/// state["size"] = nil
/// if case .integer(let size)? = state["fontSize"] { ... }
/// ```
///
/// Numbers are ``integer(_:)`` when they fit an `Int`, ``double(_:)``
/// otherwise. Object members have no order (JSON gives them none).
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number that fits an `Int`.
    case integer(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array of values, in order.
    case array([JSONValue])
    /// An object: its members by name.
    case object([String: JSONValue])

    /// The member `key` of an object; `nil` for a missing member or a value
    /// that is not an object. Setting turns a non-object into an object;
    /// setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let members) = self else { return nil }
            return members[key]
        }
        set {
            var members: [String: JSONValue] = [:]
            if case .object(let existing) = self { members = existing }
            members[key] = newValue
            self = .object(members)
        }
    }

    /// The element at `index` of an array; `nil` out of bounds or for a
    /// value that is not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
