public import Logging

/// Everything one running app owns: its clock, logger, diagnostics,
/// shutdown, and the slots the runtime fills (the event loop).
///
/// A component tree is bound with exactly one context and every node
/// reaches it (``ComponentNode/context``). ComposeApp's
/// `StartupComponent.main()` makes the one real context of a process (libuv
/// loop, monotonic clock, swift-log); ComposeTesting's `TestApp` and
/// `TestHost` make test contexts on virtual time. Nothing about an app is
/// process-global, so several test contexts live side by side in one
/// process.
///
/// Code that runs on behalf of an app (binding, observers, loop callbacks,
/// tasks started from them) finds its context as ``current``:
///
/// ```swift
/// Application.shutdown()                 // acts on AppContext.current
/// let context = try #require(AppContext.current)
/// context.shutdown.willShutDown += { ... }
/// ```
@MainActor
public final class AppContext {
    /// The app's name (its root type, or what the runtime was told), used
    /// in logs and, later, state directories and inspection.
    public let name: String
    /// The clock of time-based operators, timers and timeouts in this app:
    /// libuv timers in an app, virtual time in a test.
    public let scheduler: (any Scheduler)?
    /// The app's logger (label `compose` unless configured).
    public let logger: Logger
    /// Every diagnostic reported in this app, also logged through ``logger``.
    public let diagnostics: Emitter<Diagnostic>
    /// The app's graceful shutdown: phase, exit status, deadline,
    /// `willShutDown`.
    public let shutdown: ShutdownCoordinator

    /// The app's services, by type, with their lifecycle (see
    /// ``ServiceRegistry``).
    public let services = ServiceRegistry()
    /// Where ComposeApp keeps the app's configuration
    /// (`context.configuration`, `context.config`): Compose itself reads
    /// no configuration, so that it does not depend on swift-configuration.
    package var configurationStore: AnyObject?
    /// Where ComposeApp keeps the app's systemd notifier
    /// (`context.systemd`).
    package var systemdStore: AnyObject?
    /// Where ComposeApp keeps the app's inspection state (its server, its
    /// loop-health reporter).
    package var inspectionStore: AnyObject?
    /// Where persisted stores (`@Store(persistedAs:)`) restore from and
    /// save to (see ``StatePersisting``); `nil` until the app's first
    /// persisted store installs ComposePersistence's JSON back end, unless
    /// the app (its `StartupConfiguration`) or a test installed one before.
    public var statePersistence: (any StatePersisting)?
    /// Where ComposeApp keeps the storage persisted state goes to when the
    /// app chose no back end (`context.stateStorage`: the state
    /// directory's files, a `TestApp`'s memory).
    package var stateStorageStore: AnyObject?
    /// Persisted stores' keys and `@Ref` values of this app.
    let stateRegistry = StateRegistry()

    /// The tree bound with this context, while it lives.
    public package(set) weak var tree: ComponentTree?

    /// What the runtime keeps here (ComposeApp's event loop); `nil` in a
    /// test context, whose resources run on ``scheduler`` instead.
    package var runtime: AnyObject?
    /// Process signals delivered to a test context (`TestApp.send(_:)`);
    /// `ProcessSignal`s bound in such a context listen here.
    package let simulatedSignals = Emitter<Int32>()
    /// Whether this context simulates the outside world (a test context):
    /// loop resources bound in it run on ``scheduler`` and simulated I/O
    /// instead of libuv.
    public let isSimulated: Bool
    /// Work that keeps a test context's app running, as libuv handles keep
    /// a loop alive (virtual timers that are started, for example).
    package private(set) var activeWork = 0
    /// Whether events are recorded, and where they go (see
    /// ``tracesEvents``).
    let eventTrace = EventTrace()
    /// Behind ``clock``.
    nonisolated let clockSource: AppClockSource
    /// Where the app's random draws come from (the jitter of supervisors'
    /// backoff, see ``randomUnit()``): the system's generator in an app; in
    /// a test context (``isSimulated``) a ``SeededRandomNumberGenerator``
    /// with seed 0, so that every run draws the same numbers. A test may
    /// replace it (before the draws it wants to fix).
    public var random: any RandomNumberGenerator
    /// Tasks sleeping on ``clock``, by the order they began.
    var sleepers: [UInt64: Sleeper] = [:]
    var nextSleeper: UInt64 = 0
    /// Restarts and store saves, counted for metrics and the inspector.
    package let counters = AppCounters()
    /// Where ComposeApp keeps the app's metrics (swift-metrics objects,
    /// made once per context); `nil` until it makes them.
    package var metricsStore: AnyObject?
    /// Where ComposeFraming keeps the buffers its streams share (a spare
    /// input buffer, the encoders' scratch buffer); `nil` until it needs
    /// them.
    package var framingStore: AnyObject?
    /// What the app's root shows while it runs (ComposeApp's
    /// `AppPresentation`, started once the tree is active); `nil` for an
    /// app that shows nothing.
    package var presentationStore: AnyObject?
    /// Where ComposeTerminal keeps the app's terminal screen while it
    /// runs; `nil` for an app without one.
    package var terminalStore: AnyObject?

    /// Makes a context.
    ///
    /// - Parameters:
    ///   - name: The app's name.
    ///   - scheduler: The app's clock.
    ///   - logger: Where the app's log lines and diagnostics go.
    ///   - diagnostics: The emitter diagnostics are sent on; pass one you
    ///     already observe to see those reported while binding.
    ///   - shutdownDeadline: How long a graceful shutdown may take.
    ///   - forcedExitStatus: The exit status when the deadline passed.
    ///   - isSimulated: `true` for a test context (see ``isSimulated``).
    public init(
        name: String = "app",
        isSimulated: Bool = false,
        scheduler: (any Scheduler)? = nil,
        logger: Logger = Logger(label: "compose"),
        diagnostics: Emitter<Diagnostic> = Emitter(),
        shutdownDeadline: Duration = .seconds(10),
        forcedExitStatus: Int32 = 3
    ) {
        self.name = name
        self.isSimulated = isSimulated
        random = isSimulated ? SeededRandomNumberGenerator(seed: 0) : SystemRandomNumberGenerator()
        self.scheduler = scheduler
        self.logger = logger
        self.diagnostics = diagnostics
        shutdown = ShutdownCoordinator(deadline: shutdownDeadline, forcedExitStatus: forcedExitStatus, logger: logger, scheduler: scheduler)
        clockSource = AppClockSource(scheduler: scheduler)
        clockSource.context = self
        services.context = self
        // Sleeps go on while the app drains its connections (a goodbye
        // may take its time); they end when the tree is torn down.
        shutdown.didChangePhase += { [unowned self] phase in
            if phase == .closing { self.cancelSleeps() }
        }
    }

    /// The context of the app whose code is running: set while a runtime
    /// binds a tree, runs its loop or drives a test, and inherited by tasks
    /// started from there. `nil` outside any app.
    public nonisolated static var current: AppContext? { AppContextScope.current }

    /// Runs `body` with this context as ``current``.
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try AppContextScope.$current.withValue(self) { try body() }
    }

    /// Runs async `body` with this context as ``current``, for it and the
    /// tasks it starts (a test trait that gives each test an app, ...).
    public nonisolated func run<R: Sendable>(_ body: @Sendable () async throws -> R) async rethrows -> R {
        try await AppContextScope.$current.withValue(self) { try await body() }
    }

    /// Logs `diagnostic` and sends it on ``diagnostics``.
    public func report(_ diagnostic: Diagnostic) {
        logger.warning("\(diagnostic.description)", metadata: diagnostic.path.map { ["component": "\($0)"] })
        diagnostics.send(diagnostic)
    }

    package func beginWork() {
        activeWork += 1
    }

    package func endWork() {
        activeWork -= 1
    }
}

/// The task-local behind ``AppContext/current``.
enum AppContextScope {
    @TaskLocal static var current: AppContext?
}
