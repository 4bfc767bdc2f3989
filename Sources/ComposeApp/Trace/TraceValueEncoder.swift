/// Encodes an `Encodable` value as compact JSON for a trace's `value`:
/// what Foundation's `JSONEncoder` writes with `.sortedKeys` and
/// `.withoutEscapingSlashes`, without Foundation, which a recording app
/// does not otherwise load (docs/footprint.md).
///
/// Objects' keys are in code-point order; a number with no fraction is
/// written as an integer (`2.0` as `2`, as `JSONEncoder` does); a value
/// that encodes nothing is `{}`; a `nil` optional in a keyed container is
/// left out (`encodeIfPresent`) or `null` (`encodeNil`). Differences from
/// `JSONEncoder`: `Date` and `Data` are written as they encode themselves
/// (a number, an array of bytes) rather than with its strategies, and an
/// unsigned integer above `Int.max` as a double. Infinities and NaN throw,
/// as there.
enum TraceValueEncoder {
    /// `value` as JSON text.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, or
    ///   what `value`'s `encode(to:)` throws.
    static func encode(_ value: any Encodable) throws -> String {
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.result.json.text
    }
}

/// A JSON value under construction: containers are shared boxes, so that a
/// container handed out keeps writing into the value.
private enum Node {
    case value(InspectionJSON)
    case array(ArrayBox)
    case object(ObjectBox)

    var json: InspectionJSON {
        switch self {
        case .value(let value): value
        case .array(let box): .array(box.items.map(\.json))
        case .object(let box):
            .object(box.members.keys.sorted().map { InspectionJSON.Member(key: $0, value: box.members[$0]!.json) })
        }
    }
}

private final class ArrayBox {
    var items: [Node] = []
}

private final class ObjectBox {
    var members: [String: Node] = [:]
}

/// The `Encoder` a value encodes itself to: its result is one JSON value.
private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded; `nil` while nothing was.
    private var storage: Node?
    /// Told of the storage once set (a `superEncoder`'s result goes into
    /// its parent's container this way).
    private let didSet: ((Node) -> Void)?

    init(codingPath: [any CodingKey], didSet: ((Node) -> Void)? = nil) {
        self.codingPath = codingPath
        self.didSet = didSet
    }

    /// The value encoded: `{}` when nothing was.
    var result: Node {
        storage ?? .object(ObjectBox())
    }

    func store(_ node: Node) {
        storage = node
        didSet?(node)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let box)? = storage {
            return KeyedEncodingContainer(KeyedContainer(box: box, codingPath: codingPath))
        }
        let box = ObjectBox()
        store(.object(box))
        return KeyedEncodingContainer(KeyedContainer(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let box)? = storage {
            return UnkeyedContainer(box: box, codingPath: codingPath)
        }
        let box = ArrayBox()
        store(.array(box))
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// The JSON of `value`, encoded at `path`.
    static func node(of value: some Encodable, at path: [any CodingKey]) throws -> Node {
        switch value {
        // The scalars directly: no encoder for each.
        case let string as String: return .value(.string(string))
        case let int as Int: return .value(.int(int))
        case let bool as Bool: return .value(.bool(bool))
        case let double as Double: return .value(try number(double, at: path))
        default:
            let encoder = TreeEncoder(codingPath: path)
            try value.encode(to: encoder)
            return encoder.result
        }
    }

    /// A finite number: an integer when it has no fraction.
    static func number(_ value: Double, at path: [any CodingKey]) throws -> InspectionJSON {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "\(value) is not a JSON number."))
        }
        return .double(value)
    }

    /// `value` as the `Double` its shortest text spells (`0.1`, not
    /// `0.10000000149011612`), as `JSONEncoder` writes a `Float`.
    static func widened(_ value: Float) -> Double {
        Double("\(value)") ?? Double(value)
    }

    static func unsigned(_ value: some FixedWidthInteger) -> InspectionJSON {
        if let int = Int(exactly: value) { return .int(int) }
        return .double(Double(value))
    }
}

/// A key that is an array index, for coding paths.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) {
        intValue = index
    }

    init?(stringValue: String) {
        nil
    }

    init?(intValue: Int) {
        self.intValue = intValue
    }
}

/// The key of a `superEncoder()` without one.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}

    init?(stringValue: String) {
        guard stringValue == "super" else { return nil }
    }

    init?(intValue: Int) {
        nil
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let codingPath: [any CodingKey]

    private func set(_ value: InspectionJSON, _ key: Key) {
        box.members[key.stringValue] = .value(value)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try TreeEncoder.number(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try TreeEncoder.number(TreeEncoder.widened(value), at: codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(TreeEncoder.unsigned(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(TreeEncoder.unsigned(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.members[key.stringValue] = try TreeEncoder.node(of: value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBox()
        box.members[key.stringValue] = .object(nested)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        box.members[key.stringValue] = .array(nested)
        return UnkeyedContainer(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: SuperKey().stringValue, key: SuperKey())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue, key: key)
    }

    private func superEncoder(named name: String, key: any CodingKey) -> any Encoder {
        let box = box
        box.members[name] = .object(ObjectBox())
        return TreeEncoder(codingPath: codingPath + [key]) { box.members[name] = $0 }
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    private func append(_ value: InspectionJSON) {
        box.items.append(.value(value))
    }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try TreeEncoder.number(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try TreeEncoder.number(TreeEncoder.widened(value), at: nextPath)) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Int8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { append(TreeEncoder.unsigned(value)) }
    mutating func encode(_ value: UInt8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { append(TreeEncoder.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.items.append(try TreeEncoder.node(of: value, at: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectBox()
        let path = nextPath
        box.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        let path = nextPath
        box.items.append(.array(nested))
        return UnkeyedContainer(box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let box = box
        let index = box.items.count
        let path = nextPath
        box.items.append(.object(ObjectBox()))
        return TreeEncoder(codingPath: path) { box.items[index] = $0 }
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: InspectionJSON) {
        encoder.store(.value(value))
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try TreeEncoder.number(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try TreeEncoder.number(TreeEncoder.widened(value), at: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { set(TreeEncoder.unsigned(value)) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { set(TreeEncoder.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.store(try TreeEncoder.node(of: value, at: codingPath))
    }
}
