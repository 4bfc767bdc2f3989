public import ComposeApp
public import Configuration

extension AppConfiguration {
    /// swift-configuration's reader over this configuration's layers, for
    /// code that takes a `ConfigReader` (libraries of the swift-server
    /// ecosystem) or wants its API: scoped readers, `watch` sequences told
    /// of every reload, secrets, access logging
    /// (`CONFIG_ACCESS_LOG_FILE`).
    ///
    /// ```swift
    /// import ComposeConfiguration
    ///
    /// let http = Application.config.reader.scoped(to: "http")
    /// let port = http.int(forKey: "port", default: 8080)
    /// ```
    ///
    /// It reads what the configuration's own methods read, in the same
    /// order, and its reads count for `--help` and the unknown options
    /// (`AppConfiguration.reportUnreadArguments()`) as theirs do. Made on
    /// first use, then the same reader for the configuration's life.
    public var reader: ConfigReader {
        if let box = extensionStore as? ReaderBox { return box.reader }
        let reader = ConfigReader(
            provider: AppConfigurationProvider(layers: layers),
            accessReporter: AccessLogReporter(log: accessLog)
        )
        extensionStore = ReaderBox(reader: reader)
        return reader
    }
}

/// Where a configuration keeps its reader.
private final class ReaderBox {
    let reader: ConfigReader

    init(reader: ConfigReader) {
        self.reader = reader
    }
}

/// Records a swift-configuration reader's reads in the configuration's
/// own log.
struct AccessLogReporter: AccessReporter {
    let log: ConfigAccessLog

    func report(_ event: AccessEvent) {
        let value = (try? event.result.get()).flatMap { $0.map(\.content).flatMap(AppConfiguration.Value.init) }
        log.record(
            key: event.metadata.key.components.joined(separator: "."),
            type: AppConfiguration.ValueType(event.metadata.valueType),
            value: value
        )
    }
}

extension AppConfiguration.ValueType {
    /// The type a swift-configuration read of `type` reads from the
    /// layers: bytes are base64 strings.
    init(_ type: ConfigType) {
        self = switch type {
        case .string, .bytes: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .stringArray, .byteChunkArray: .stringArray
        case .intArray: .intArray
        case .doubleArray: .doubleArray
        case .boolArray: .boolArray
        }
    }
}

extension AppConfiguration.Value {
    /// The value of `content`, or `nil` for bytes.
    init?(_ content: ConfigContent) {
        switch content {
        case .string(let string): self = .string(string)
        case .int(let int): self = .int(int)
        case .double(let double): self = .double(double)
        case .bool(let bool): self = .bool(bool)
        case .stringArray(let strings): self = .stringArray(strings)
        case .intArray(let ints): self = .intArray(ints)
        case .doubleArray(let doubles): self = .doubleArray(doubles)
        case .boolArray(let bools): self = .boolArray(bools)
        case .bytes, .byteChunkArray: return nil
        }
    }

    /// This value as swift-configuration's content of `type`; `nil` when
    /// bytes do not decode from base64.
    func content(as type: ConfigType) -> ConfigContent? {
        switch (self, type) {
        case (.string(let string), .bytes): ConfigBytesFromBase64StringDecoder().decode(string).map(ConfigContent.bytes)
        case (.stringArray(let strings), .byteChunkArray):
            Self.decoded(strings).map(ConfigContent.byteChunkArray)
        case (.string(let string), _): .string(string)
        case (.int(let int), _): .int(int)
        case (.double(let double), _): .double(double)
        case (.bool(let bool), _): .bool(bool)
        case (.stringArray(let strings), _): .stringArray(strings)
        case (.intArray(let ints), _): .intArray(ints)
        case (.doubleArray(let doubles), _): .doubleArray(doubles)
        case (.boolArray(let bools), _): .boolArray(bools)
        }
    }

    private static func decoded(_ strings: [String]) -> [[UInt8]]? {
        var chunks: [[UInt8]] = []
        for string in strings {
            guard let bytes = ConfigBytesFromBase64StringDecoder().decode(string) else { return nil }
            chunks.append(bytes)
        }
        return chunks
    }
}
