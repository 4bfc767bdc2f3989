public import Compose
public import Configuration
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// An app's configuration: a swift-configuration `ConfigReader` layered
/// from the command line, the environment, an optional JSON file and the
/// app's defaults, reloaded on `SIGHUP`.
///
/// Every app has one on its context (`AppContext.configuration`), ready
/// before its root component is created, so the root's `init()` reads its
/// settings there:
///
/// ```swift
/// init() {
///     let config = Application.config
///     server = ServerComponent(port: config.int(forKey: "port", default: 8080))
/// }
/// ```
///
/// The layers, from the highest priority (see ``ConfigOptions``):
///
/// 1. ``overrides`` (a `TestApp`'s in-memory configuration);
/// 2. ``arguments``: `--port 8080`, `--port=8080`, `--verbose`;
/// 3. ``environment``: `NOTES_PORT=8080` for the app `notes` (the prefix
///    is the app's name unless ``ConfigOptions/environmentPrefix`` says
///    otherwise: `CHAT_PORT` with `"CHAT"`, `PORT` with `.none`);
/// 4. the file named by the key ``ConfigOptions/fileKey`` in the layers
///    above or the defaults (`--config app.json`, `NOTES_CONFIG=app.json`),
///    read as JSON unless ``ConfigOptions/fileFormats`` says otherwise;
/// 5. ``ConfigOptions/defaults``; then the default given where a value is
///    read.
///
/// ``reload()`` (what `SIGHUP` does, in an app and in a `TestApp`) reads
/// the environment and the file again and sends ``didReload``. The reader
/// stays the same object: readers made from it before, scoped ones
/// included, see the new values, and `watch` readers are told. A file that
/// cannot be read or parsed is a diagnostic
/// (`Diagnostic.Code.configurationFileRejected`): at startup the app
/// goes on without it; on a reload the previous values stay, the
/// environment's included, and ``didReload`` is not sent.
///
/// The file is read synchronously, on the loop's thread: a configuration
/// file is small and read at startup and on `SIGHUP` only.
///
/// The ``reader`` is made on its first use: an app that reads no setting
/// never makes it (swift-configuration's `ConfigReader` reads Foundation's
/// `ProcessInfo` environment when it is made; docs/footprint.md). The
/// runtime reads its own settings (`workers`, `inspection`, the file's
/// key, ...) from the same layers, in the same order, with the same
/// conversions, and records them for `--help` the same way.
@MainActor
public final class AppConfiguration {
    /// Where the environment layer reads from.
    public enum Environment: Sendable, ExpressibleByDictionaryLiteral {
        /// The process's environment, read again on each reload.
        case process
        /// Exactly these variables (a test's).
        case variables([String: String])

        public init(dictionaryLiteral elements: (String, String)...) {
            self = .variables(Dictionary(elements) { _, last in last })
        }
    }

    /// The layered reader. The same object for the app's whole life, made
    /// on its first use.
    public var reader: ConfigReader {
        if let builtReader { return builtReader }
        let reader = ConfigReader(providers: layers, accessReporter: accessLog)
        builtReader = reader
        return reader
    }
    /// Sent after each successful ``reload()``: read the values that may
    /// have changed again.
    ///
    /// ```swift
    /// Application.configurationDidReload += {
    ///     hub.greeting = Application.config.string(forKey: "greeting", default: "Hello")
    /// }
    /// ```
    public let didReload = SignalEmitter()
    /// How the configuration is read.
    public let options: ConfigOptions
    /// The command-line arguments read, without the program's name.
    public let arguments: [String]
    /// The app's name (its root's label, `notes`), which the environment
    /// variables carry as their prefix by default
    /// (``ConfigOptions/EnvironmentPrefix/appName``); `nil` outside an app.
    public let appName: String?
    /// The prefix of the environment variables' names in effect
    /// (`NOTES`), or `nil` for none.
    public var environmentPrefix: String? {
        options.environmentPrefix.resolved(app: appName)
    }
    /// Where the environment layer reads from; a change takes effect at the
    /// next ``reload()``.
    public var environment: Environment
    /// The highest layer, in memory: a `TestApp`'s configuration.
    public let overrides: [AbsoluteConfigKey: ConfigValue]
    /// The configuration file in use, if any.
    public private(set) var filePath: String?
    /// The context diagnostics are reported to (set when installed as
    /// ``AppContext/configuration``).
    weak var context: AppContext?
    /// Every key read, for `--help` and unread arguments.
    let accessLog = ConfigAccessLog()
    /// A diagnostic from before the configuration had a context.
    private var pending: Diagnostic?

    private let environmentLayer: ReloadableLayer
    private let fileLayer: ReloadableLayer
    /// The overrides and the command line.
    private let layersAboveEnvironment: [any ConfigProvider]
    private let defaultsLayer: LiteralLayer
    /// The reader, once something used it.
    private(set) var builtReader: ConfigReader?
    /// Every layer, the highest first: what the reader queries.
    var layers: [any ConfigProvider] {
        layersAboveEnvironment + [environmentLayer, fileLayer, defaultsLayer]
    }

    /// Makes an app's configuration and reads its file, if one is named.
    ///
    /// A failure to read the file is reported once the configuration is
    /// installed on a context (or, without one, as a diagnostic of no app:
    /// see `Diagnostics`).
    ///
    /// - Parameters:
    ///   - arguments: Command-line arguments, without the program's name.
    ///   - environment: Where environment variables come from.
    ///   - overrides: Values above every other layer.
    ///   - options: The prefix, file key, defaults and file formats.
    ///   - appName: The app's name, the environment's prefix by default
    ///     (see ``appName``).
    public init(
        arguments: [String] = [],
        environment: Environment = [:],
        overrides: [AbsoluteConfigKey: ConfigValue] = [:],
        options: ConfigOptions = ConfigOptions(),
        appName: String? = nil
    ) {
        self.arguments = arguments
        self.environment = environment
        self.overrides = overrides
        self.options = options
        self.appName = appName
        let environmentProvider = Self.environmentProvider(environment, prefix: options.environmentPrefix.resolved(app: appName))
        environmentLayer = ReloadableLayer(environmentProvider.snapshot())
        fileLayer = ReloadableLayer(Self.noFile)
        defaultsLayer = LiteralLayer(name: "defaults", values: options.defaults)
        var above: [any ConfigProvider] = []
        if !overrides.isEmpty { above.append(LiteralLayer(name: "overrides", values: overrides)) }
        if !arguments.isEmpty {
            above.append(CommandLineArgumentsProvider(arguments: ["app"] + Self.flags(arguments, positionalKeys: options.positionalKeys)))
        }
        layersAboveEnvironment = above
        // swift-configuration logs every read to the file this variable
        // names, its own reads included: the runtime's reads go through the
        // reader then, as they always did.
        if getenv(Self.accessLogVariable) != nil { _ = reader }
        switch loadFile(environment: environmentProvider) {
        case .success(let file):
            filePath = file?.path
            if let file { fileLayer.replace(with: file.snapshot) }
        case .failure(let diagnostic):
            pending = diagnostic
        }
    }

    /// The configuration `StartupComponent.main()` makes: the process's
    /// arguments and environment.
    ///
    /// - Parameters:
    ///   - options: The prefix, file key, defaults and file formats.
    ///   - appName: The app's name (see ``appName``).
    public static func process(options: ConfigOptions, appName: String? = nil) -> AppConfiguration {
        AppConfiguration(arguments: Array(CommandLine.arguments.dropFirst()), environment: .process, options: options, appName: appName)
    }

    /// Reads the environment and the configuration file again, then sends
    /// ``didReload``; `SIGHUP` calls it.
    ///
    /// When the file cannot be read or parsed, reports
    /// `Diagnostic.Code.configurationFileRejected` naming the file and
    /// why, keeps every previous value and sends nothing.
    ///
    /// - Returns: Whether the new values are in place.
    @discardableResult
    public func reload() -> Bool {
        let environment = Self.environmentProvider(environment, prefix: environmentPrefix)
        switch loadFile(environment: environment) {
        case .failure(let diagnostic):
            report(diagnostic)
            return false
        case .success(let file):
            environmentLayer.replace(with: environment.snapshot())
            fileLayer.replace(with: file?.snapshot ?? Self.noFile)
            filePath = file?.path
            context?.logger.info("Configuration reloaded\(file.map { " from \($0.path)" } ?? "").")
            didReload.send()
            return true
        }
    }

    /// Installs this configuration on `context`, reporting there what
    /// went wrong before.
    func attach(to context: AppContext) {
        self.context = context
        if let pending {
            self.pending = nil
            report(pending)
        }
    }

    private func report(_ diagnostic: Diagnostic) {
        if let context {
            context.report(diagnostic)
        } else {
            Diagnostics.report(diagnostic)
        }
    }

    // MARK: Layers

    private static let noFile = LiteralLayer(name: "no configuration file", values: [:])
    /// The environment variable with which swift-configuration's readers
    /// log every read to a file.
    static let accessLogVariable = "CONFIG_ACCESS_LOG_FILE"

    private static func environmentProvider(_ environment: Environment, prefix: String?) -> any ConfigProvider {
        let provider = switch environment {
        // Read from `environ`: the provider's own init() would make
        // Foundation's ProcessInfo for the same strings.
        case .process: EnvironmentVariablesProvider(environmentVariables: ProcessEnvironment.variables())
        case .variables(let variables): EnvironmentVariablesProvider(environmentVariables: variables)
        }
        guard let prefix else { return provider }
        return provider.prefixKeys(with: ConfigKey([prefix.lowercased()]))
    }

    /// The file named by the layers above it (with `environment` as the
    /// environment's), parsed; `nil` when none is named.
    private func loadFile(environment: any ConfigProvider) -> Result<(path: String, snapshot: any ConfigSnapshot)?, Diagnostic> {
        let finderLayers = layersAboveEnvironment + [environment, defaultsLayer]
        let key = ConfigKey(options.fileKey)
        // Without a reporter, the finder's read is seen by swift-configuration's
        // access log file only: a `ConfigReader` when there is one.
        let named: String? = if getenv(Self.accessLogVariable) != nil {
            ConfigReader(providers: finderLayers).string(forKey: key)
        } else {
            Self.lookUp(AbsoluteConfigKey(key), as: .string, in: finderLayers).flatMap(\.content.stringIfAny)
        }
        guard let path = named, !path.isEmpty else { return .success(nil) }
        do {
            let bytes = try Self.contents(of: path)
            let snapshot = try Self.parse(bytes, as: options.format(of: path), path: path)
            return .success((path, snapshot))
        } catch {
            return .failure(Diagnostic(
                .configurationFileRejected,
                "Configuration file \(path) not used: \(error). The app goes on with the values it had."
            ))
        }
    }

    private static func parse<Snapshot: FileConfigSnapshot>(_ bytes: [UInt8], as type: Snapshot.Type, path: String) throws -> any ConfigSnapshot {
        try Snapshot(data: bytes.span.bytes, providerName: "file \(path)", parsingOptions: .default)
    }

    /// The bytes of the file at `path`.
    ///
    /// - Throws: ``LoopError`` from `open` or `read`.
    private static func contents(of path: String) throws(LoopError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LoopError("open", code: -errno, context: path) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LoopError("read", code: -errno, context: path)
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }
}
