// The reads are nonisolated: they touch only the layers and the access
// log, both safe from any thread, so a task, a service or a settings
// struct's nonisolated init reads the configuration as swift-configuration's
// `ConfigReader` would be read.
extension AppConfiguration {
    /// The value of `key` (dotted: `http.port`) as a string: from the
    /// highest layer that has it (see ``AppConfiguration``), or `nil`.
    ///
    /// Each read is recorded for `--help`, which lists the setting with
    /// its flag, variable and default.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: Its value, or `nil` when no layer has one that converts.
    public nonisolated func string(forKey key: String) -> String? {
        read(key, .string, default: nil) { if case .string(let value) = $0 { value } else { nil } }
    }

    /// The value of `key` as a string, or `defaultValue`.
    ///
    /// ```swift
    /// let greeting = Application.config.string(forKey: "greeting", default: "Hello")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - defaultValue: What the read gives when no layer has a value
    ///     that converts; `--help` shows it.
    /// - Returns: The value or the default.
    public nonisolated func string(forKey key: String, default defaultValue: String) -> String {
        read(key, .string, default: .string(defaultValue)) { if case .string(let value) = $0 { value } else { nil } } ?? defaultValue
    }

    /// The value of `key` as an integer (`--port 8080`), or `nil`.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: Its value, or `nil` when no layer has one that converts.
    public nonisolated func int(forKey key: String) -> Int? {
        read(key, .int, default: nil) { if case .int(let value) = $0 { value } else { nil } }
    }

    /// The value of `key` as an integer, or `defaultValue`.
    ///
    /// ```swift
    /// let port = Application.config.int(forKey: "port", default: 8080)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - defaultValue: What the read gives when no layer has a value
    ///     that converts; `--help` shows it.
    /// - Returns: The value or the default.
    public nonisolated func int(forKey key: String, default defaultValue: Int) -> Int {
        read(key, .int, default: .int(defaultValue)) { if case .int(let value) = $0 { value } else { nil } } ?? defaultValue
    }

    /// The value of `key` as a number (`--ratio 0.5`, or an integer), or
    /// `nil`.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: Its value, or `nil` when no layer has one that converts.
    public nonisolated func double(forKey key: String) -> Double? {
        read(key, .double, default: nil) { if case .double(let value) = $0 { value } else { nil } }
    }

    /// The value of `key` as a number, or `defaultValue`.
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - defaultValue: What the read gives when no layer has a value
    ///     that converts; `--help` shows it.
    /// - Returns: The value or the default.
    public nonisolated func double(forKey key: String, default defaultValue: Double) -> Double {
        read(key, .double, default: .double(defaultValue)) { if case .double(let value) = $0 { value } else { nil } } ?? defaultValue
    }

    /// The value of `key` as a Boolean (`--verbose`, `--verbose false`,
    /// `NOTES_VERBOSE=yes`: `true`, `false`, `yes`, `no`, `1`, `0`), or
    /// `nil`.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: Its value, or `nil` when no layer has one that converts.
    public nonisolated func bool(forKey key: String) -> Bool? {
        read(key, .bool, default: nil) { if case .bool(let value) = $0 { value } else { nil } }
    }

    /// The value of `key` as a Boolean, or `defaultValue`.
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - defaultValue: What the read gives when no layer has a value
    ///     that converts; `--help` shows it.
    /// - Returns: The value or the default.
    public nonisolated func bool(forKey key: String, default defaultValue: Bool) -> Bool {
        read(key, .bool, default: .bool(defaultValue)) { if case .bool(let value) = $0 { value } else { nil } } ?? defaultValue
    }

    /// The value of `key` as a list of strings (`--tags a,b`, `--tags a b`,
    /// `NOTES_TAGS=a,b`, a file's array), or `nil`.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: Its value, or `nil` when no layer has one that converts.
    public nonisolated func stringArray(forKey key: String) -> [String]? {
        read(key, .stringArray, default: nil) { if case .stringArray(let value) = $0 { value } else { nil } }
    }

    /// The value of `key` as a list of strings, or `defaultValue`.
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - defaultValue: What the read gives when no layer has a value
    ///     that converts; `--help` shows it.
    /// - Returns: The value or the default.
    public nonisolated func stringArray(forKey key: String, default defaultValue: [String]) -> [String] {
        read(key, .stringArray, default: .stringArray(defaultValue)) { if case .stringArray(let value) = $0 { value } else { nil } }
            ?? defaultValue
    }

    /// The value of `key` as a list of integers (`--ports 80,443`), or
    /// `nil`.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: Its value, or `nil` when no layer has one that converts.
    public nonisolated func intArray(forKey key: String) -> [Int]? {
        read(key, .intArray, default: nil) { if case .intArray(let value) = $0 { value } else { nil } }
    }

    /// The value of `key` as a list of integers, or `defaultValue`.
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - defaultValue: What the read gives when no layer has a value
    ///     that converts; `--help` shows it.
    /// - Returns: The value or the default.
    public nonisolated func intArray(forKey key: String, default defaultValue: [Int]) -> [Int] {
        read(key, .intArray, default: .intArray(defaultValue)) { if case .intArray(let value) = $0 { value } else { nil } } ?? defaultValue
    }

    /// The value of `key` as a list of numbers, or `nil`.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: Its value, or `nil` when no layer has one that converts.
    public nonisolated func doubleArray(forKey key: String) -> [Double]? {
        read(key, .doubleArray, default: nil) { if case .doubleArray(let value) = $0 { value } else { nil } }
    }

    /// The value of `key` as a list of numbers, or `defaultValue`.
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - defaultValue: What the read gives when no layer has a value
    ///     that converts; `--help` shows it.
    /// - Returns: The value or the default.
    public nonisolated func doubleArray(forKey key: String, default defaultValue: [Double]) -> [Double] {
        read(key, .doubleArray, default: .doubleArray(defaultValue)) { if case .doubleArray(let value) = $0 { value } else { nil } }
            ?? defaultValue
    }

    /// The value of `key` as a list of Booleans, or `nil`.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: Its value, or `nil` when no layer has one that converts.
    public nonisolated func boolArray(forKey key: String) -> [Bool]? {
        read(key, .boolArray, default: nil) { if case .boolArray(let value) = $0 { value } else { nil } }
    }

    /// The value of `key` as a list of Booleans, or `defaultValue`.
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - defaultValue: What the read gives when no layer has a value
    ///     that converts; `--help` shows it.
    /// - Returns: The value or the default.
    public nonisolated func boolArray(forKey key: String, default defaultValue: [Bool]) -> [Bool] {
        read(key, .boolArray, default: .boolArray(defaultValue)) { if case .boolArray(let value) = $0 { value } else { nil } }
            ?? defaultValue
    }

    /// Looks `key` up as `type`, records the read (with what it gave, the
    /// default when no layer had a value), and unwraps the value.
    private nonisolated func read<T>(_ key: String, _ type: ValueType, default defaultValue: Value?, _ unwrap: (Value) -> T?) -> T? {
        let found = layers.lookUp(key, as: type)
        accessLog.record(key: key, type: type, value: found ?? defaultValue)
        return found.flatMap(unwrap)
    }
}
