/// How an app's configuration is read: the environment variables' prefix,
/// the app's defaults, the descriptions `--help` prints, the configuration
/// file's key and format, the positional arguments.
///
/// An app reads its settings through `Application.config` (an
/// ``AppConfiguration``), layered from the highest priority:
///
/// 1. the command line: `--room-capacity 8` or `--room-capacity=8` (key
///    `roomCapacity`; `http.port` is `--http-port`);
/// 2. the environment: `CHAT_ROOM_CAPACITY=8` for an app whose root is
///    `ChatComponent` (the prefix is the app's name unless
///    ``environmentPrefix`` says otherwise; `ROOM_CAPACITY` with
///    ``EnvironmentPrefix/none``);
/// 3. a configuration file named by ``fileKey`` (`--config chat.json` or
///    `CHAT_CONFIG=chat.json`), when the app has a ``fileFormat``:
///    `{"roomCapacity": 8, "http": {"port": 80}}`;
/// 4. ``defaults``, then the default given where the value is read.
///
/// The command line holds flags only, unless ``positionalKeys`` declares
/// positional arguments: `notes 9000` with `positionalKeys: ["port"]` is
/// `notes --port 9000`. A positional argument nobody declared stops the
/// app with a usage line and exit status 64 (`EX_USAGE`), so `notes 9000`
/// never silently listens on the default port; so does a flag of no
/// setting the app has (`notes --prot 9000`): one it did not read by the
/// time its root is active and that ``descriptions`` and ``defaults`` do
/// not name.
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
    /// Prepended to every environment variable's name: `"CHAT"` reads key
    /// `port` from `CHAT_PORT`. By default (``EnvironmentPrefix/appName``)
    /// the app's name: `NOTES_PORT` for an app whose root is
    /// `NotesComponent`, so a `PORT` a platform sets for another program
    /// is not read by mistake. ``EnvironmentPrefix/none`` reads `PORT`.
    public var environmentPrefix: EnvironmentPrefix
    /// The key whose value is the path of a configuration file
    /// (`--config`, `<PREFIX>_CONFIG`, or ``defaults``), read when the app
    /// has a ``fileFormat``; no file is read when no layer has it.
    public var fileKey: String
    /// The app's defaults, below every other layer, by dotted key
    /// (`"http.port": 80`).
    public var defaults: [String: AppConfiguration.Value]
    /// One line about each setting, by key (`"roomCapacity"`,
    /// `"http.port"`), printed by `--help`.
    public var descriptions: [String: String]
    /// How the configuration file is parsed; `nil`, the default, reads no
    /// file: ``fileKey`` is then no setting of the app (`--config` is an
    /// unknown option). ComposeConfiguration gives `.json`; importing it
    /// loads Foundation, which an app that reads no file does without.
    ///
    /// ```swift
    /// import ComposeConfiguration
    ///
    /// ConfigOptions(fileFormat: .json)
    /// ```
    public var fileFormat: ConfigFileFormat?
    /// The keys the command line's positional arguments give, in order:
    /// with `["port"]`, `app 9000 --verbose` reads `port` as 9000. More
    /// positional arguments than keys (by default, any) are a usage error:
    /// the app prints why and a usage line, and exits 64.
    public var positionalKeys: [String]

    /// - Parameters:
    ///   - environmentPrefix: See ``environmentPrefix``.
    ///   - fileKey: See ``fileKey``.
    ///   - fileFormat: See ``fileFormat``.
    ///   - defaults: See ``defaults``.
    ///   - descriptions: See ``descriptions``.
    ///   - positionalKeys: See ``positionalKeys``.
    public init(
        environmentPrefix: EnvironmentPrefix = .appName,
        fileKey: String = "config",
        fileFormat: ConfigFileFormat? = nil,
        defaults: [String: AppConfiguration.Value] = [:],
        descriptions: [String: String] = [:],
        positionalKeys: [String] = []
    ) {
        self.environmentPrefix = environmentPrefix
        self.fileKey = fileKey
        self.defaults = defaults
        self.descriptions = descriptions
        self.fileFormat = fileFormat
        self.positionalKeys = positionalKeys
    }
}

extension ConfigOptions {
    /// What is prepended to the environment variables' names
    /// (``ConfigOptions/environmentPrefix``): the app's name (the default),
    /// a prefix of the app's choice (a string literal: `"CHAT"`), or none.
    ///
    /// ```swift
    /// ConfigOptions()                              // NOTES_PORT for NotesComponent
    /// ConfigOptions(environmentPrefix: "CHAT")     // CHAT_PORT
    /// ConfigOptions(environmentPrefix: .none)      // PORT
    /// ```
    public struct EnvironmentPrefix: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        private enum Kind: Sendable, Hashable {
            case appName
            case fixed(String)
            case none
        }

        private let kind: Kind

        private init(_ kind: Kind) {
            self.kind = kind
        }

        /// The app's name: its root component's label
        /// (`AppContext.name`: `notes` for `NotesComponent`), in capitals
        /// with its words apart: `NOTES_PORT`, `HIT_COUNTER_APP_PORT` for
        /// `HitCounterApp`. A configuration made outside an app, with no
        /// name, reads unprefixed names.
        public static let appName = Self(.appName)
        /// No prefix: key `port` is read from `PORT`.
        public static let none = Self(.none)

        /// This prefix: `CHAT` reads `CHAT_PORT`. An empty one is ``none``.
        ///
        /// - Parameter prefix: The prefix, without the trailing `_`.
        public static func fixed(_ prefix: String) -> Self {
            prefix.isEmpty ? .none : Self(.fixed(prefix))
        }

        /// The prefix `value`: `environmentPrefix: "CHAT"`.
        public init(stringLiteral value: String) {
            self = .fixed(value)
        }

        /// The prefix in effect for the app named `app` (``appName``), as
        /// given to the environment provider; `nil` for none.
        ///
        /// - Parameter app: The app's name (its root's label), if known.
        /// - Returns: The prefix, or `nil` for none.
        public func resolved(app: String?) -> String? {
            switch kind {
            case .appName: app.flatMap(Self.prefix(forApp:))
            case .fixed(let prefix): prefix
            case .none: nil
            }
        }

        /// `HIT_COUNTER_APP` for the label `hitCounterApp`, `KVRESP` for
        /// `kVResp` (the type `KVResp`): a word starts where a lowercase
        /// letter meets an uppercase one, as in the configuration's keys,
        /// and anything but a letter or a digit is `_`.
        static func prefix(forApp label: String) -> String? {
            guard let first = label.utf8.first else { return nil }
            // The type's name (`KVResp`, not the label's `kVResp`), spelled
            // as the environment spells a key. Byte by byte: a `Character`
            // made upper-case and a `String + Substring` cost 120 thousand
            // instructions at every start (docs/footprint.md).
            var name = Array(label.utf8)
            if ConfigKeyNames.isLowercase(first) { name[0] = first - 0x20 }
            return ConfigKeyNames.environment(String(decoding: name, as: UTF8.self), prefix: nil)
        }

        /// What it is, for messages: `the app's name`, `CHAT` or `none`.
        public var description: String {
            switch kind {
            case .appName: "the app's name"
            case .fixed(let prefix): prefix
            case .none: "none"
            }
        }
    }
}
