import Configuration

/// Values written in code, as a layer of an app's configuration: a
/// `TestApp`'s configuration and the app's defaults.
///
/// Unlike swift-configuration's `InMemoryProvider`, which fails a read of
/// another type than the one stored, a value converts to the type asked for
/// when it does so exactly, as a value typed on the command line would:
/// `["idleSeconds": 60]` reads as the `Double` 60, `["port": "7000"]` as
/// the `Int` 7000. A value that does not convert fails the read (and the
/// reader returns its default).
struct LiteralLayer: ConfigProvider {
    let providerName: String
    let values: [AbsoluteConfigKey: ConfigValue]

    init(name: String, values: [AbsoluteConfigKey: ConfigValue]) {
        providerName = name
        self.values = values
    }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let encoded = key.description
        guard let stored = values[key] else { return LookupResult(encodedKey: encoded, value: nil) }
        guard let content = Self.convert(stored.content, to: type) else {
            throw ConfigurationError("\(encoded) is \(stored.content.typeName), not \(type.rawValue)")
        }
        return LookupResult(encodedKey: encoded, value: ConfigValue(content, isSecret: stored.isSecret))
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    func snapshot() -> any ConfigSnapshot { self }

    func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }

    /// `content` as `type`, when it converts exactly.
    static func convert(_ content: ConfigContent, to type: ConfigType) -> ConfigContent? {
        switch (content, type) {
        case (.string(let string), .string): .string(string)
        case (.string(let string), .int): Int(string).map(ConfigContent.int)
        case (.string(let string), .double): Double(string).map(ConfigContent.double)
        case (.string(let string), .bool): bool(string).map(ConfigContent.bool)
        case (.int(let int), .int): .int(int)
        case (.int(let int), .double): Double(exactly: int).map(ConfigContent.double)
        case (.int(let int), .string): .string(String(int))
        case (.double(let double), .double): .double(double)
        case (.double(let double), .int): Int(exactly: double).map(ConfigContent.int)
        case (.double(let double), .string): .string(String(double))
        case (.bool(let bool), .bool): .bool(bool)
        case (.bool(let bool), .string): .string(String(bool))
        case (.bytes(let bytes), .bytes): .bytes(bytes)
        case (.stringArray(let strings), .stringArray): .stringArray(strings)
        case (.stringArray(let strings), .intArray): all(strings.map { Int($0) }).map(ConfigContent.intArray)
        case (.stringArray(let strings), .doubleArray): all(strings.map { Double($0) }).map(ConfigContent.doubleArray)
        case (.stringArray(let strings), .boolArray): all(strings.map(bool)).map(ConfigContent.boolArray)
        case (.intArray(let ints), .intArray): .intArray(ints)
        case (.intArray(let ints), .doubleArray): all(ints.map { Double(exactly: $0) }).map(ConfigContent.doubleArray)
        case (.doubleArray(let doubles), .doubleArray): .doubleArray(doubles)
        case (.boolArray(let bools), .boolArray): .boolArray(bools)
        case (.byteChunkArray(let chunks), .byteChunkArray): .byteChunkArray(chunks)
        default: nil
        }
    }

    private static func bool(_ string: String) -> Bool? {
        switch string.lowercased() {
        case "true", "yes", "1": true
        case "false", "no", "0": false
        default: nil
        }
    }

    private static func all<T>(_ values: [T?]) -> [T]? {
        let present = values.compactMap { $0 }
        return present.count == values.count ? present : nil
    }
}

extension LiteralLayer: ConfigSnapshot {}

extension ConfigContent {
    /// The name of the content's type, for messages.
    var typeName: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .bytes: "bytes"
        case .stringArray: "stringArray"
        case .intArray: "intArray"
        case .doubleArray: "doubleArray"
        case .boolArray: "boolArray"
        case .byteChunkArray: "byteChunkArray"
        }
    }
}
