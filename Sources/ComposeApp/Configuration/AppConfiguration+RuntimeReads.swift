import Configuration

/// The runtime's own reads of an app's configuration (`workers`,
/// `reusePort`, `inspection`, `trace.file`, `trace.paths`, the file's
/// key), without making the ``AppConfiguration/reader`` while nothing else
/// has: swift-configuration's `ConfigReader` reads Foundation's
/// `ProcessInfo` environment when it is made, which costs every app's
/// startup about half a million instructions and a megabyte of resident
/// memory (docs/footprint.md).
///
/// Each read gives what the reader's method of the same name gives: the
/// layers are queried in the reader's order, the first value wins, a
/// layer that throws ends the search with no value, a value of another
/// type than the one read gives the default; and it is recorded for
/// `--help` and the unread arguments as the reader's access reporter
/// records it. Once the reader exists, they go through it.
extension AppConfiguration {
    /// `reader.bool(forKey:default:)`.
    func runtimeBool(forKey key: String, default defaultValue: Bool) -> Bool {
        if let builtReader = builtReader { return builtReader.bool(forKey: ConfigKey(key), default: defaultValue) }
        return read(key, .bool, default: defaultValue, ConfigContent.bool) { if case .bool(let value) = $0 { value } else { nil } }
            ?? defaultValue
    }

    /// `reader.int(forKey:default:)`.
    func runtimeInt(forKey key: String, default defaultValue: Int) -> Int {
        if let builtReader = builtReader { return builtReader.int(forKey: ConfigKey(key), default: defaultValue) }
        return read(key, .int, default: defaultValue, ConfigContent.int) { if case .int(let value) = $0 { value } else { nil } }
            ?? defaultValue
    }

    /// `reader.string(forKey:)`.
    func runtimeString(forKey key: String) -> String? {
        if let builtReader = builtReader { return builtReader.string(forKey: ConfigKey(key)) }
        return read(key, .string, default: nil, ConfigContent.string, \.stringIfAny)
    }

    /// `reader.stringArray(forKey:)`.
    func runtimeStringArray(forKey key: String) -> [String]? {
        if let builtReader = builtReader { return builtReader.stringArray(forKey: ConfigKey(key)) }
        return read(key, .stringArray, default: nil, ConfigContent.stringArray) {
            if case .stringArray(let value) = $0 { value } else { nil }
        }
    }

    /// What swift-configuration's `valueFromReader` does, the access event
    /// reduced to what ``ConfigAccessLog`` keeps: the value read, else
    /// `defaultValue` (when there is one) with `isSecret` false.
    private func read<Value>(
        _ name: String,
        _ type: ConfigType,
        default defaultValue: Value?,
        _ wrap: (Value) -> ConfigContent,
        _ unwrap: (ConfigContent) -> Value?
    ) -> Value? {
        let key = AbsoluteConfigKey(ConfigKey(name))
        let found = Self.lookUp(key, as: type, in: layers)
        let final: (value: Value, isSecret: Bool)? = if let found, let value = unwrap(found.content) {
            (value, found.isSecret)
        } else {
            defaultValue.map { ($0, false) }
        }
        accessLog.record(key: key, type: type, value: final.map { ConfigValue(wrap($0.value), isSecret: $0.isSecret) })
        return final?.value
    }

    /// The first value `layers` have for `key`, as swift-configuration's
    /// `MultiProvider` finds it: `nil` when none has one, or when a layer
    /// throws (which ends the search).
    static func lookUp(_ key: AbsoluteConfigKey, as type: ConfigType, in layers: [any ConfigProvider]) -> ConfigValue? {
        for layer in layers {
            do {
                if let value = try layer.value(forKey: key, type: type).value { return value }
            } catch {
                return nil
            }
        }
        return nil
    }
}

extension ConfigContent {
    /// The string, if this is one.
    var stringIfAny: String? {
        if case .string(let value) = self { value } else { nil }
    }
}
