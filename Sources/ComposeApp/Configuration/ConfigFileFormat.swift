/// How an app's configuration file is parsed (``ConfigOptions/fileFormat``).
///
/// ComposeApp reads no file by itself: parsing JSON or YAML takes
/// Foundation, which an app that reads no file should not load (about
/// 2 MiB of memory and 2 million instructions at startup;
/// docs/footprint.md). ComposeConfiguration gives JSON:
///
/// ```swift
/// import ComposeConfiguration
///
/// StartupConfiguration(config: ConfigOptions(fileFormat: .json))
/// ```
///
/// Any other format is a function from the file's bytes to its values by
/// dotted key (`http.port` for `{"http": {"port": 80}}`):
///
/// ```swift
/// let keyValue = ConfigFileFormat(name: "key=value") { bytes, _ in
///     var values: [String: AppConfiguration.Value] = [:]
///     for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
///         let parts = line.split(separator: "=", maxSplits: 1)
///         if parts.count == 2 { values[String(parts[0])] = .string(String(parts[1])) }
///     }
///     return values
/// }
/// ```
public struct ConfigFileFormat: Sendable {
    /// What the format is called in `--help` ("the JSON file named by
    /// --config"): `JSON`.
    public let name: String
    /// Parses a file's bytes into values by dotted key.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - path: Where they were read from (to choose by extension, or for
    ///     messages).
    /// - Throws: Why the file is not used (reported as
    ///   `Diagnostic.Code.configurationFileRejected`).
    public let parse: @Sendable (_ bytes: [UInt8], _ path: String) throws -> [String: AppConfiguration.Value]

    /// A format called `name` that parses with `parse`.
    ///
    /// - Parameters:
    ///   - name: What `--help` calls it.
    ///   - parse: Turns a file's bytes (and its path) into values by
    ///     dotted key; throws when the file is not of the format.
    public init(name: String, parse: @escaping @Sendable (_ bytes: [UInt8], _ path: String) throws -> [String: AppConfiguration.Value]) {
        self.name = name
        self.parse = parse
    }

    /// A format chosen by the file's extension (lowercased, without the
    /// dot), `otherwise` for any other:
    /// `.byExtension(["yaml": yaml, "yml": yaml], otherwise: .json)`.
    ///
    /// - Parameters:
    ///   - formats: Formats by extension.
    ///   - otherwise: The format of a file with another extension, or none.
    /// - Returns: The format that dispatches to them.
    public static func byExtension(_ formats: [String: ConfigFileFormat], otherwise: ConfigFileFormat) -> ConfigFileFormat {
        var names = [otherwise.name]
        for format in formats.values.sorted(by: { $0.name < $1.name }) where !names.contains(format.name) {
            names.append(format.name)
        }
        return ConfigFileFormat(name: names.joined(separator: " or ")) { bytes, path in
            try (formats[extensionOf(path)] ?? otherwise).parse(bytes, path)
        }
    }

    /// `json` for `/etc/app.JSON`; empty when the name has no extension.
    static func extensionOf(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
