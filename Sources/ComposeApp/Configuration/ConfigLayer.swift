#if canImport(Glibc)
import Glibc
#endif

/// One layer of an app's configuration: the values of a test, the command
/// line, the environment, a file, the app's defaults.
///
/// A layer answers a key (`http.port`) read as a type: the value, `nil`
/// when it has none, or a ``ConfigurationError`` when what it has does not
/// convert to the type (the read then ends there and gives its default,
/// whatever the layers below hold).
package protocol ConfigLayer: Sendable {
    /// What the layer is, for messages: `command line`, `file app.json`.
    var name: String { get }

    /// The value of `key` as `type`, or `nil` when the layer has none.
    ///
    /// - Throws: ``ConfigurationError`` when the layer's value does not
    ///   convert to `type`.
    func value(forKey key: String, as type: AppConfiguration.ValueType) throws(ConfigurationError) -> AppConfiguration.Value?
}

/// Values by key, written in code or parsed from a file: a test's
/// overrides, the app's defaults, a configuration file.
struct ValuesLayer: ConfigLayer {
    let name: String
    let values: [String: AppConfiguration.Value]

    func value(forKey key: String, as type: AppConfiguration.ValueType) throws(ConfigurationError) -> AppConfiguration.Value? {
        guard let stored = values[key] else { return nil }
        guard let value = stored.converted(to: type) else {
            throw ConfigurationError("\(key) in the \(name) is \(stored), which is not \(type.helpName)")
        }
        return value
    }
}

/// The command line: `--port 8080`, `--port=8080`, `--verbose` (a
/// Boolean, `true`), `--tags a b` or `--tags a,b` (a list).
///
/// Keys are spelled as flags by ``ConfigKeyNames/flag(_:)``:
/// `roomCapacity` is `--room-capacity`, `http.port` is `--http-port`.
/// Arguments that follow no flag are positional, and ignored here (see
/// ``ConfigOptions/positionalKeys``). A flag given twice gives all its
/// values, in order.
struct CommandLineLayer: ConfigLayer {
    var name: String { "command line" }
    /// Each flag's values, as written (`--port` ↦ `["8080"]`; `[]` for a
    /// flag with none).
    let values: [String: [String]]

    init(arguments: [String]) {
        var values: [String: [String]] = [:]
        var current: String?
        for argument in arguments {
            if argument.hasPrefix("--") {
                if let equals = argument.firstIndex(of: "=") {
                    values[String(argument[..<equals]), default: []].append(String(argument[argument.index(after: equals)...]))
                    current = nil
                } else {
                    current = argument
                    if values[argument] == nil { values[argument] = [] }
                }
            } else if let current {
                values[current, default: []].append(argument)
            }
        }
        self.values = values
    }

    func value(forKey key: String, as type: AppConfiguration.ValueType) throws(ConfigurationError) -> AppConfiguration.Value? {
        let flag = ConfigKeyNames.flag(key)
        guard let given = values[flag] else { return nil }
        let value: AppConfiguration.Value? = switch type {
        // `--verbose` alone is `true`.
        case .bool where given.isEmpty: .bool(true)
        case .stringArray, .intArray, .doubleArray, .boolArray:
            // `--tags a,b c` is three items.
            AppConfiguration.Value.parse(given.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }, as: type)
        default: AppConfiguration.Value.parse(given, as: type)
        }
        guard let value else {
            throw ConfigurationError("\(flag) \(given.joined(separator: " ")) is not \(type.helpName)")
        }
        return value
    }
}

/// Environment variables: key `port` of the app `notes` is `NOTES_PORT`
/// (``ConfigKeyNames/environment(_:prefix:)``). A list is comma-separated:
/// `NOTES_TAGS=a,b`.
struct EnvironmentLayer: ConfigLayer {
    var name: String { "environment" }
    /// The prefix of the variables' names (`NOTES`), or `nil` for none.
    let prefix: String?
    /// The variables, or `nil` for this process's own, read with `getenv`
    /// at each lookup (nothing in Compose calls `setenv`): no copy of the
    /// whole environment is made at startup.
    let variables: [String: String]?

    func value(forKey key: String, as type: AppConfiguration.ValueType) throws(ConfigurationError) -> AppConfiguration.Value? {
        let name = ConfigKeyNames.environment(key, prefix: prefix)
        guard let text = variable(name) else { return nil }
        guard let value = AppConfiguration.Value.parse(text, as: type) else {
            throw ConfigurationError("\(name)=\(text) is not \(type.helpName)")
        }
        return value
    }

    private func variable(_ name: String) -> String? {
        if let variables { return variables[name] }
        return getenv(name).map { String(cString: $0) }
    }
}
