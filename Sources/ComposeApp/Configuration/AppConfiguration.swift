public import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// An app's configuration: its settings layered from the command line,
/// the environment, an optional configuration file and the app's
/// defaults, reloaded on `SIGHUP`.
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
///    parsed by ``ConfigOptions/fileFormat`` (none by default: an app
///    reads files once it gives one, such as ComposeConfiguration's
///    `.json`);
/// 5. ``ConfigOptions/defaults``; then the default given where a value is
///    read.
///
/// The first layer that has the key gives its value, converted to the type
/// read (`--port 8080` reads as the `Int` 8080); when that value does not
/// convert (`--port eighty`), the read gives its default.
///
/// ``reload()`` (what `SIGHUP` does, in an app and in a `TestApp`) reads
/// the environment and the file again and sends ``didReload``. A file that
/// cannot be read or parsed is a diagnostic
/// (`Diagnostic.Code.configurationFileRejected`): at startup the app
/// goes on without it; on a reload the previous values stay, the
/// environment's included, and ``didReload`` is not sent.
///
/// The file is read synchronously, on the loop's thread: a configuration
/// file is small and read at startup and on `SIGHUP` only. Every key read
/// is recorded, for `--help` and to find command-line options of no
/// setting (``reportUnreadArguments()``).
///
/// This is Compose's own reader, without Foundation: an app that reads
/// flags and variables loads none. ComposeConfiguration adds
/// swift-configuration's `ConfigReader` over the same layers
/// (`configuration.reader`), for libraries that take one.
@MainActor
public final class AppConfiguration {
    /// Where the environment layer reads from.
    public enum Environment: Sendable, ExpressibleByDictionaryLiteral {
        /// The process's environment.
        case process
        /// Exactly these variables (a test's).
        case variables([String: String])

        public init(dictionaryLiteral elements: (String, String)...) {
            self = .variables(Dictionary(elements) { _, last in last })
        }
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
    public let overrides: [String: Value]
    /// The configuration file in use, if any.
    public private(set) var filePath: String?
    /// The context diagnostics are reported to (set when installed as
    /// ``AppContext/configuration``).
    weak var context: AppContext?
    /// Every key read, for `--help` and unread arguments.
    package nonisolated let accessLog = ConfigAccessLog()
    /// The layers, readable from any thread.
    package nonisolated let layers: ConfigLayers
    /// Where ComposeConfiguration keeps what it makes once per
    /// configuration (its swift-configuration reader).
    package var extensionStore: AnyObject?
    /// A diagnostic from before the configuration had a context.
    private var pending: Diagnostic?

    /// Makes an app's configuration and reads its file, if one is named.
    ///
    /// A failure to read the file is reported once the configuration is
    /// installed on a context (or, without one, as a diagnostic of no app:
    /// see `Diagnostics`).
    ///
    /// - Parameters:
    ///   - arguments: Command-line arguments, without the program's name.
    ///   - environment: Where environment variables come from.
    ///   - overrides: Values above every other layer, by dotted key.
    ///   - options: The prefix, defaults, file key and format.
    ///   - appName: The app's name, the environment's prefix by default
    ///     (see ``appName``).
    public init(
        arguments: [String] = [],
        environment: Environment = [:],
        overrides: [String: Value] = [:],
        options: ConfigOptions = ConfigOptions(),
        appName: String? = nil
    ) {
        self.arguments = arguments
        self.environment = environment
        self.overrides = overrides
        self.options = options
        self.appName = appName
        var above: [any ConfigLayer] = []
        if !overrides.isEmpty { above.append(ValuesLayer(name: "test configuration", values: overrides)) }
        if !arguments.isEmpty {
            above.append(CommandLineLayer(arguments: Self.flags(arguments, positionalKeys: options.positionalKeys)))
        }
        let environmentLayer = Self.environmentLayer(environment, prefix: options.environmentPrefix.resolved(app: appName))
        layers = ConfigLayers(above: above, environment: environmentLayer, defaults: ValuesLayer(name: "defaults", values: options.defaults))
        switch loadFile(environment: environmentLayer) {
        case .success(let file):
            filePath = file?.path
            if let file { layers.replace(environment: environmentLayer, file: file.layer) }
        case .failure(let diagnostic):
            pending = diagnostic
        }
    }

    /// The configuration `StartupComponent.main()` makes: the process's
    /// arguments and environment.
    ///
    /// - Parameters:
    ///   - options: The prefix, defaults, file key and format.
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
        let environment = Self.environmentLayer(environment, prefix: environmentPrefix)
        switch loadFile(environment: environment) {
        case .failure(let diagnostic):
            report(diagnostic)
            return false
        case .success(let file):
            layers.replace(environment: environment, file: file?.layer)
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

    func report(_ diagnostic: Diagnostic) {
        if let context {
            context.report(diagnostic)
        } else {
            Diagnostics.report(diagnostic)
        }
    }

    // MARK: Layers

    private static func environmentLayer(_ environment: Environment, prefix: String?) -> EnvironmentLayer {
        switch environment {
        case .process: EnvironmentLayer(prefix: prefix, variables: nil)
        case .variables(let variables): EnvironmentLayer(prefix: prefix, variables: variables)
        }
    }

    /// The file named by the layers above it (with `environment` as the
    /// environment's), parsed; `nil` when none is named or the app reads
    /// no file (``ConfigOptions/fileFormat`` is `nil`).
    private func loadFile(environment: EnvironmentLayer) -> Result<(path: String, layer: ValuesLayer)?, Diagnostic> {
        guard let format = options.fileFormat else { return .success(nil) }
        let named = ConfigLayers.lookUp(options.fileKey, as: .string, in: layers.fileFinders(environment: environment))
        guard case .string(let path)? = named, !path.isEmpty else { return .success(nil) }
        do {
            let values = try format.parse(try Self.contents(of: path), path)
            return .success((path, ValuesLayer(name: "file \(path)", values: values)))
        } catch {
            return .failure(Diagnostic(
                .configurationFileRejected,
                "Configuration file \(path) not used: \(error). The app goes on with the values it had."
            ))
        }
    }

    /// The largest configuration file read: 1 MiB. A larger one is
    /// rejected (`Diagnostic.Code.configurationFileRejected`), never read
    /// into memory whole.
    public static let maximumFileSize = 1 << 20

    /// The bytes of the file at `path`.
    ///
    /// Only a regular file is read: a FIFO (opened without waiting for a
    /// writer) or a device is refused, rather than holding the loop's
    /// thread at startup and at every `SIGHUP`.
    ///
    /// - Throws: ``LoopError`` from `open`, `fstat` or `read`;
    ///   ``ConfigurationError`` for what is not a regular file and past
    ///   ``maximumFileSize``.
    private static func contents(of path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw LoopError("open", code: -errno, context: path) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw LoopError("fstat", code: -errno, context: path) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ConfigurationError("not a regular file (a FIFO, a device or a socket is not read)")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LoopError("read", code: -errno, context: path)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumFileSize else {
                throw ConfigurationError("larger than \(maximumFileSize) bytes, the most a configuration file may hold")
            }
            bytes += chunk[0..<count]
        }
    }
}
