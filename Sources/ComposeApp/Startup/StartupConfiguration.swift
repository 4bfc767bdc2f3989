public import Logging

/// How a ``StartupComponent`` app starts and stops.
///
/// ```swift
/// extension AppComponent: StartupComponent {
///     static var configuration: StartupConfiguration {
///         StartupConfiguration(shutdownDeadline: .seconds(5))
///     }
/// }
/// ```
public struct StartupConfiguration: Sendable {
    /// Signals that start a graceful shutdown. A second one during shutdown
    /// exits at once with status 128 + the signal number.
    public var shutdownSignals: [ProcessSignal.Name]
    /// How long a graceful shutdown may take, its drain included. Past it,
    /// the handles still open are closed by force and the app exits with
    /// ``forcedExitStatus``.
    public var shutdownDeadline: Duration
    /// The exit status when the deadline forced the shutdown.
    public var forcedExitStatus: Int32
    /// Makes the log handler of the app's logger (the context's), in place
    /// before the runtime logs anything; `nil` uses swift-log's bootstrapped
    /// handler (standard error by default).
    ///
    /// ```swift
    /// StartupConfiguration(makeLogHandler: { label in
    ///     var handler = StreamLogHandler.standardOutput(label: label)
    ///     handler.logLevel = .debug
    ///     return handler
    /// })
    /// ```
    public var makeLogHandler: (@Sendable (String) -> any LogHandler)?
    /// How `@Store(persistedAs:)` stores are saved; `nil`, the default,
    /// lets the app's first persisted store install ComposePersistence's
    /// `.json()` with its defaults (the stores need ComposePersistence to
    /// compile). Name one for other timing, `.json(debounce:maximumWait:)`,
    /// or another back end.
    public var statePersistence: StatePersistenceFactory?
    /// The directory persisted state is saved in; `nil` for the default,
    /// `$XDG_STATE_HOME/<app>` or `~/.local/state/<app>` (see
    /// ``defaultStateDirectory(app:environment:)``).
    public var stateDirectory: String?
    /// How the app's configuration (`AppContext.config`) is read: the
    /// environment prefix, the file key, defaults, `--help` descriptions.
    public var config: ConfigOptions
    /// How long a shutdown waits for the connections its listeners
    /// accepted to close, once told (`TCPConnection.willDrain`), before it
    /// closes them (see `ShutdownCoordinator.Phase.draining`). 5 s by
    /// default; keep it shorter than ``shutdownDeadline``, which bounds the
    /// whole shutdown, drain included. An app with no connection open does
    /// not wait at all.
    ///
    /// ```swift
    /// StartupConfiguration(shutdownDeadline: .seconds(30), drainTimeout: .seconds(20))
    /// ```
    public var drainTimeout: Duration
    /// Whether the app's log lines carry syslog priority prefixes (`<3>`,
    /// `<6>`, ...) when standard error is the systemd journal
    /// (`$JOURNAL_STREAM` names it; see ``JournalLogHandler``): `true` by
    /// default. It applies to the default handler only, not to one
    /// ``makeLogHandler`` makes; turn it off to keep swift-log's
    /// bootstrapped handler under the journal too. Elsewhere lines are
    /// plain either way.
    public var journalPriorityPrefixes: Bool
    /// Whether the app answers `compose inspect` on its inspection socket
    /// and writes the `tree` and `loop` reports to the log on `SIGUSR1`
    /// (see docs/inspection-protocol.md). On by default; the configuration
    /// key `inspection` (`--inspection false`, `<PREFIX>_INSPECTION=false`)
    /// overrides it.
    public var inspection: Bool
    /// The directory of the inspection socket; `nil` for the default,
    /// `$XDG_RUNTIME_DIR/compose`, else `/tmp/compose-<uid>`. It is made
    /// `0700` if missing, and refused (inspection off, logged) if it
    /// exists with wider permissions or another owner.
    public var inspectionDirectory: String?
    /// Whether inspection may change the app: `compose inspect APP open
    /// ROUTE` routes the running app only when this is `true`, or when the
    /// configuration key `inspectionAllowsChanges` says so
    /// (`--inspection-allows-changes true`,
    /// `<PREFIX>_INSPECTION_ALLOWS_CHANGES=true`). Off by default: any
    /// process of the app's user may connect to its inspection socket, and
    /// moving a live user to another screen is not something to leave to
    /// it in production. Allowed, a change goes through the app's public
    /// routing API (`ComponentTree.open(_:mode:)`), so the app's observers
    /// of its routers run as for any route change. Looking (`tree`,
    /// `loop`, `follow`) is never refused.
    ///
    /// ```swift
    /// StartupConfiguration(inspectionAllowsChanges: true)   // a development build
    /// ```
    public var inspectionAllowsChanges: Bool
    /// The workers mode: how many copies of the app to run, sharing its
    /// ports, and how to restart them (see ``WorkerOptions``); none by
    /// default. The setting `workers` (`--workers 4`) overrides the count.
    public var workers: WorkerOptions
    /// How long the event loop keeps polling for I/O without sleeping
    /// after each input (bytes read, a connection accepted; not a timer's
    /// tick): `.zero`, the default, sleeps at once. Up to
    /// 10 ms; the setting `busyPollMicroseconds`
    /// (`--busy-poll-microseconds 50`) overrides it.
    ///
    /// A loop that sleeps is woken by the next packet, and on a virtual
    /// machine the wake-up (an interrupt to a halted virtual CPU) is paid
    /// by whoever sent it: a few microseconds of the client's CPU per
    /// request when a request-and-reply server is often asleep. A window
    /// of some tens of microseconds keeps a busy server awake between
    /// requests, at the price of that much CPU after each burst; an idle
    /// server sleeps one window after its last input. Measure before
    /// turning it on (Performance: "Busy polling").
    ///
    /// ```swift
    /// StartupConfiguration(busyPolling: .microseconds(50))
    /// ```
    public var busyPolling: Duration

    /// A configuration with the defaults described on each property; name
    /// only what differs: `StartupConfiguration(shutdownDeadline: .seconds(5))`.
    public init(
        shutdownSignals: [ProcessSignal.Name] = [.interrupt, .terminate],
        shutdownDeadline: Duration = .seconds(10),
        forcedExitStatus: Int32 = 3,
        makeLogHandler: (@Sendable (String) -> any LogHandler)? = nil,
        statePersistence: StatePersistenceFactory? = nil,
        stateDirectory: String? = nil,
        config: ConfigOptions = ConfigOptions(),
        drainTimeout: Duration = .seconds(5),
        journalPriorityPrefixes: Bool = true,
        inspection: Bool = true,
        inspectionDirectory: String? = nil,
        inspectionAllowsChanges: Bool = false,
        workers: WorkerOptions = WorkerOptions(),
        busyPolling: Duration = .zero
    ) {
        self.shutdownSignals = shutdownSignals
        self.shutdownDeadline = shutdownDeadline
        self.forcedExitStatus = forcedExitStatus
        self.makeLogHandler = makeLogHandler
        self.statePersistence = statePersistence
        self.stateDirectory = stateDirectory
        self.config = config
        self.drainTimeout = drainTimeout
        self.journalPriorityPrefixes = journalPriorityPrefixes
        self.inspection = inspection
        self.inspectionDirectory = inspectionDirectory
        self.inspectionAllowsChanges = inspectionAllowsChanges
        self.workers = workers
        self.busyPolling = busyPolling
    }

    /// The app's logger (label `compose`), with ``makeLogHandler``'s
    /// handler when there is one, else, when `logsToJournal` (standard
    /// error is the journal) and ``journalPriorityPrefixes``, a
    /// ``JournalLogHandler``.
    package func makeLogger(logsToJournal: Bool = false) -> Logger {
        if let makeLogHandler { return Logger(label: "compose", factory: makeLogHandler) }
        if logsToJournal, journalPriorityPrefixes { return Logger(label: "compose") { JournalLogHandler(label: $0) } }
        return Logger(label: "compose")
    }
}
