public import Configuration

/// How an app's configuration is read: the environment variables' prefix,
/// the key that names a configuration file, the app's defaults, the
/// descriptions `--help` prints and the file formats understood.
///
/// An app reads its settings through `AppContext.config` (a
/// swift-configuration `ConfigReader`), layered from the highest priority:
///
/// 1. the command line: `--room-capacity 8` or `--room-capacity=8` (key
///    `roomCapacity`; `http.port` is `--http-port`);
/// 2. the environment: `CHAT_ROOM_CAPACITY=8` with the prefix `CHAT`
///    (`ROOM_CAPACITY` without one);
/// 3. a JSON file named by ``fileKey`` (`--config chat.json` or
///    `CHAT_CONFIG=chat.json`): `{"roomCapacity": 8, "http": {"port": 80}}`;
/// 4. ``defaults``, then the default given where the value is read.
///
/// ```swift
/// extension ChatApp: StartupComponent {
///     static var configuration: StartupConfiguration {
///         StartupConfiguration(config: ConfigOptions(
///             environmentPrefix: "CHAT",
///             descriptions: ["port": "The TCP port to listen on."]
///         ))
///     }
/// }
/// ```
public struct ConfigOptions: Sendable {
    /// Prepended to every environment variable's name: `CHAT` reads key
    /// `port` from `CHAT_PORT`. `nil` (the default) reads `PORT`.
    public var environmentPrefix: String?
    /// The key whose value is the path of a configuration file
    /// (`--config`, `<PREFIX>_CONFIG` or `CONFIG`, or ``defaults``); no
    /// file is read when no layer has it.
    public var fileKey: String
    /// The app's defaults, below every other layer.
    public var defaults: [AbsoluteConfigKey: ConfigValue]
    /// One line about each setting, by key (`"roomCapacity"`,
    /// `"http.port"`), printed by `--help`.
    public var descriptions: [String: String]
    /// The snapshot type that parses a configuration file, by the file's
    /// extension (lowercased, without the dot); a file with another
    /// extension is read as JSON. YAML is not built in: Yams needs all of
    /// Foundation, which would make every app's memory grow by several
    /// MiB. An app that wants it enables swift-configuration's `YAML` trait
    /// in its own manifest and adds
    /// `["yaml": YAMLSnapshot.self, "yml": YAMLSnapshot.self]`.
    public var fileFormats: [String: any FileConfigSnapshot.Type]

    /// - Parameters:
    ///   - environmentPrefix: See ``environmentPrefix``.
    ///   - fileKey: See ``fileKey``.
    ///   - defaults: See ``defaults``.
    ///   - descriptions: See ``descriptions``.
    ///   - fileFormats: See ``fileFormats``.
    public init(
        environmentPrefix: String? = nil,
        fileKey: String = "config",
        defaults: [AbsoluteConfigKey: ConfigValue] = [:],
        descriptions: [String: String] = [:],
        fileFormats: [String: any FileConfigSnapshot.Type] = ["json": JSONConfigSnapshot.self]
    ) {
        self.environmentPrefix = environmentPrefix
        self.fileKey = fileKey
        self.defaults = defaults
        self.descriptions = descriptions
        self.fileFormats = fileFormats
    }

    /// The snapshot type for a file at `path`.
    func format(of path: String) -> any FileConfigSnapshot.Type {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return JSONConfigSnapshot.self }
        let suffix = name[name.index(after: dot)...].lowercased()
        return fileFormats[suffix] ?? JSONConfigSnapshot.self
    }
}
