public import ComposeApp
public import Testing

/// A whole app in a test: it runs the app's code as
/// `StartupComponent.main()` does, on a test context — virtual time,
/// simulated clients, no real socket or signal, and an exit status instead
/// of exiting the process.
///
/// ```swift
/// @MainActor @Test func theHeartbeatBeatsEveryMinute() {
///     let app = TestApp(root: Heartbeat())   // or TestApp(MyApp.self)
///     app.advance(by: .seconds(600))         // ten virtual minutes, at once
///     #expect(app.root(as: Heartbeat.self)?.beats.value == 10)
///     let peer = try app.connect(port: 7070) // a client of the app's TCPServer
///     peer.write("hello\n")
///     #expect(peer.readLines() == ["HELLO"])
///     app.send(.terminate)                   // SIGTERM: graceful shutdown
///     app.runUntilExit()
///     #expect(app.exitStatus == 0)
/// }
/// ```
///
/// Each `TestApp` has a context of its own: several live side by side in
/// one process (Swift Testing runs tests in parallel), and
/// `Application.shutdown()` or `Application.willShutDown` in an app's code
/// act on that app's context. Code the test runs directly (sending to an
/// emitter of the app) should go through ``run(_:)`` so that it runs as
/// the app's code.
@MainActor
public final class TestApp {
    /// The app's test context.
    public let context: AppContext
    /// The app's virtual clock.
    public let scheduler: VirtualScheduler
    /// The bound tree; `nil` until the app's services have started (at
    /// once unless a `start()` suspends), and for good if they failed to.
    public private(set) var tree: ComponentTree!
    /// Every diagnostic the app reported, binding included, in order.
    public private(set) var diagnostics: [Diagnostic] = []
    /// The app's log, kept in memory: a test run prints no log line unless
    /// `COMPOSE_TEST_LOG` asks for it (see ``TestLog``). Empty when the
    /// app's `StartupConfiguration` brings its own `makeLogHandler`.
    public var logs: [TestLog.Entry] { log.entries }
    /// Where ``logs`` are kept.
    public let log = TestLog()
    /// Every emitter send, lifecycle and route change in the app, with its
    /// path and virtual time, and assertions on them (see ``TestEvents``).
    public private(set) var events: TestEvents!
    /// The in-memory back end of the app's persisted stores (see
    /// ``InMemoryStateStorage``); replace it in `setUp`, before the root
    /// binds, to restore what another `TestApp` saved.
    public var stateStorage = InMemoryStateStorage() {
        didSet { installStatePersistence() }
    }
    /// The state persistence the app's configuration names, if any (else
    /// its first persisted store installs the JSON one on ``stateStorage``).
    let statePersistence: StatePersistenceFactory?
    private let shutdownSignals: [ProcessSignal.Name]
    private var deadline: ScheduledAction?
    /// Whether a driver (``runUntilIdle()``, ``advance(by:)``, ``run(_:)``,
    /// ...) is running: one called from the code it runs (an observer, a
    /// timer) stops the process (see `ReentryGuard`). Async drivers hold
    /// it only between their suspensions.
    private var reentry = ReentryGuard()

    /// Runs `App` as `StartupComponent.main()` does: registers and starts
    /// its services, then `init()`, `willBindRootComponent()`, binding,
    /// `didBindRootComponent()`, activation; then runs what is due at
    /// virtual time zero.
    ///
    /// ```swift
    /// let app = TestApp(ChatApp.self, services: { services in
    ///     services.register(MailService.self) { FakeMail() }   // replaces the app's
    /// })
    /// ```
    ///
    /// When a service's `start()` suspends (it sleeps on the app's clock,
    /// ...), the root is created once it has started: ``tree`` is `nil`
    /// until then; advance time or ``settle(rounds:)`` to get there. When
    /// the services cannot start, the app ends as a real one does (see
    /// `ServiceRegistry`): ``exitStatus`` is
    /// `ServiceRegistry.startFailureExitStatus`.
    ///
    /// - Parameters:
    ///   - type: The app's root component type, as `@main` names it.
    ///   - config: The app's configuration (`AppContext.config`), in
    ///     memory, above its file and defaults; nothing is read from the
    ///     process's arguments or environment. `["config": "app.json"]`
    ///     reads that file too (when the app has a
    ///     `ConfigOptions.fileFormat`), again on `send(.hangup)`.
    ///   - sourceLocation: Where unasserted ``events`` are reported when
    ///     the app goes away (here, by default).
    ///   - setUp: Runs first, before the app exists: script the outside
    ///     world the app meets at startup there (see
    ///     `TestApp+Scripting.swift`).
    ///   - services: Registers services after the app's own
    ///     (`App.registerServices(in:)`): a type registered again replaces
    ///     the app's. They can read `config`.
    ///
    /// ```swift
    /// let app = TestApp(ChatApp.self, config: ["port": 7000, "roomCapacity": 3])
    /// ```
    public convenience init<App: StartupComponent>(
        _ type: App.Type,
        config: [String: AppConfiguration.Value] = [:],
        sourceLocation: SourceLocation = #_sourceLocation,
        setUp: (TestApp) -> Void = { _ in },
        services: (ServiceRegistry) -> Void = { _ in }
    ) {
        self.init(name: ComponentTree.defaultLabel(for: App.self), configuration: App.configuration, config: config, sourceLocation: sourceLocation)
        setUp(self)
        App.registerServices(in: context.services)
        services(context.services)
        start { [unowned self] in
            tree = App.bindRoot(in: context)
        }
    }

    /// Runs any component as an app's root, with the default
    /// `StartupConfiguration`; `setUp` runs before the root binds, and
    /// `services` registers the app's services (started before it binds).
    /// `config` is the app's in-memory configuration, as for
    /// ``init(_:config:sourceLocation:setUp:services:)`` (`root` was made
    /// before it: its observers and the services read it).
    public convenience init<Root: Component>(
        root: Root,
        configuration: StartupConfiguration = StartupConfiguration(),
        config: [String: AppConfiguration.Value] = [:],
        sourceLocation: SourceLocation = #_sourceLocation,
        setUp: (TestApp) -> Void = { _ in },
        services: (ServiceRegistry) -> Void = { _ in }
    ) {
        self.init(name: ComponentTree.defaultLabel(for: Root.self), configuration: configuration, config: config, sourceLocation: sourceLocation)
        setUp(self)
        services(context.services)
        start { [unowned self] in tree = ComponentTree(root, context: context) }
    }

    private init(name: String, configuration: StartupConfiguration, config: [String: AppConfiguration.Value], sourceLocation: SourceLocation) {
        let scheduler = VirtualScheduler()
        self.scheduler = scheduler
        shutdownSignals = configuration.shutdownSignals
        statePersistence = configuration.statePersistence
        let diagnostics = Emitter<Diagnostic>()
        context = AppContext(
            name: name,
            isSimulated: true,
            scheduler: scheduler,
            logger: configuration.makeLogHandler == nil ? log.makeLogger() : configuration.makeLogger(),
            diagnostics: diagnostics,
            shutdownDeadline: configuration.shutdownDeadline,
            forcedExitStatus: configuration.forcedExitStatus
        )
        diagnostics += { [unowned self] in self.diagnostics.append($0) }
        context.configuration = AppConfiguration(overrides: config, options: configuration.config)
        context.runtime = SimulatedWorld(context: context)
        installStatePersistence()
        context.shutdown.drainTimeout = configuration.drainTimeout
        context.inspectionAllowsChangesByDefault = configuration.inspectionAllowsChanges
        context.shutdown.onBegin = { [unowned self] in self.armDeadline() }
        context.shutdown.onClose = { [unowned self] in self.closeTree() }
        events = TestEvents(context: context, createdAt: sourceLocation) { [unowned self] in
            self.tree?.root.label ?? name
        }
    }

    /// Starts the services, then `bind`s and activates the root, as
    /// `StartupComponent.main()` does.
    private func start(bind: @escaping @MainActor () -> Void) {
        context.shutdown.onRequestWhileStarting = { [unowned self] in context.services.cancelStart() }
        context.run {
            context.services.start { [unowned self] outcome in
                context.run {
                    switch outcome {
                    case .started:
                        bind()
                        tree.activate()
                        context.startPresentation(of: tree)
                        context.shutdown.didStart()
                        context.systemd.ready()
                    case .failed:
                        context.shutdown.startFailed(status: ServiceRegistry.startFailureExitStatus, reason: "its services failed to start")
                    case .interrupted:
                        context.shutdown.startFailed(status: nil, reason: "interrupted while its services started")
                    }
                }
                drainDue()
                events.startHasEnded()
            }
        }
    }

    /// The root component, if it is a `T` (`nil` until the app's services
    /// have started and the root exists).
    public func root<T: Component>(as type: T.Type) -> T? {
        tree?.root.value(as: type)
    }

    /// The exit status, once the app has ended; `nil` while it runs.
    public var exitStatus: Int32? {
        context.shutdown.phase == .finished ? context.shutdown.exitStatus : nil
    }

    /// Whether the app has ended.
    public var hasExited: Bool { context.shutdown.phase == .finished }

    /// Current virtual time.
    public var now: Duration { scheduler.now }

    // MARK: Driving
    //
    // Every driver is not reentrant (see `ReentryGuard`): called from the
    // code it runs (an observer, a timer, a script's handler), it stops
    // the process with a message naming it. The public drivers mark the
    // app as driven for their synchronous part (`drive`) and build on the
    // unguarded `drainDue()` and `moveTime(by:)`, never on each other.

    /// Runs `body` as the app's code (`AppContext.current` is the app's
    /// context), then everything it made due.
    ///
    /// Like every driver of the app, not reentrant: called from the code
    /// the app runs (an observer, a timer), it stops the process. Send to
    /// the app's emitters there instead.
    @discardableResult
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try runAsApp("TestApp.run(_:)", body)
    }

    /// Moves virtual time forward by `duration`: timers, `debounce`,
    /// `delay`, timeouts and the shutdown deadline fire on the way, in time
    /// order, and the async work each one starts runs before the next.
    /// Not reentrant, as ``run(_:)``.
    public func advance(by duration: Duration) {
        drive("TestApp.advance(by:)") { moveTime(by: duration) }
    }

    /// Moves virtual time forward by `duration`, letting the app's tasks
    /// run on the way: like ``advance(by:)``, and each time the clock moves,
    /// the tasks it woke (sleeps on `AppContext.clock`, tasks observers
    /// started) run before it moves again, so they resume in virtual-time
    /// order. Not reentrant, as ``run(_:)`` (a task may call it while the
    /// test awaits another driver: they take turns at each suspension).
    ///
    /// ```swift
    /// await app.advance(by: .seconds(10))   // a task sleeping 5 s ran at 5 s
    /// ```
    public func advance(by duration: Duration) async {
        await moveTime(by: duration, as: "TestApp.advance(by:)")
    }

    /// Runs everything due now without moving time: the actions due at
    /// this virtual instant, and those they schedule for it. Not
    /// reentrant, as ``run(_:)``.
    ///
    /// Tasks that observers start (`Task { @MainActor in ... }`) run when
    /// the test yields the main actor: `await app.settle()`.
    public func runUntilIdle() {
        drive("TestApp.runUntilIdle()") { drainDue() }
    }

    /// Lets the main actor's pending jobs run (tasks observers started, and
    /// their continuations), then runs what they made due now; `rounds`
    /// bounds how many times it yields. Not reentrant, as ``run(_:)``.
    public func settle(rounds: Int = 16) async {
        await settle(rounds: rounds, as: "TestApp.settle(rounds:)")
    }

    /// Runs `body` as the driver `call`: stops the process when a driver
    /// of the app, or its clock, is running already.
    func drive<R>(_ call: @autoclosure () -> String, _ body: () throws -> R) rethrows -> R {
        if scheduler.isRunningActions { ReentryGuard.reentered(call(), from: VirtualScheduler.actionCode) }
        reentry.enter(call())
        defer { reentry.leave() }
        return try body()
    }

    /// Runs `body` as the app's code, then what it made due, as the
    /// driver `call`.
    func runAsApp<R>(_ call: @autoclosure () -> String, _ body: () throws -> R) rethrows -> R {
        try drive(call()) {
            let result = try context.run(body)
            drainDue()
            return result
        }
    }

    /// ``runUntilIdle()``, unguarded: for the drivers.
    func drainDue() {
        context.run {
            scheduler.runDue()
            // The turn is over: a presentation draws what it changed.
            context.simulation?.endTurn()
            checkFinished()
        }
    }

    /// ``advance(by:)``, unguarded: for the drivers.
    func moveTime(by duration: Duration) {
        let target = scheduler.now + duration
        context.run {
            drainDue()
            while let due = scheduler.nextDueTime, due <= target {
                scheduler.advance(by: due - scheduler.now)
                drainDue()
            }
            scheduler.advance(by: target - scheduler.now)
        }
        drainDue()
    }

    /// ``advance(by:)`` (async) as the driver `call`.
    private func moveTime(by duration: Duration, as call: String) async {
        let target = scheduler.now + duration
        await settle(as: call)
        while let due = scheduler.nextDueTime, due <= target {
            drive(call) { context.run { scheduler.advance(by: due - scheduler.now) } }
            await settle(as: call)
        }
        drive(call) { context.run { scheduler.advance(by: target - scheduler.now) } }
        await settle(as: call)
    }

    /// ``settle(rounds:)`` as the driver `call`: guarded only between its
    /// suspensions, where the tasks it lets run are not inside it.
    private func settle(rounds: Int = 16, as call: String) async {
        for _ in 0..<rounds {
            drive(call) { drainDue() }
            await Task.yield()
        }
        drive(call) { drainDue() }
    }

    /// Connects a client to the app's `TCPServer` listening on `port`; the
    /// server accepts it at once. Nothing touches a real socket.
    ///
    /// Not reentrant, as ``run(_:)``.
    ///
    /// - Throws: `LoopError.Code.connectionRefused` when no server of the
    ///   app listens on `port`.
    public func connect(port: UInt16) throws(LoopError) -> TestPeer {
        try connect(port: port, simulating: nil, call: "TestApp.connect(port:)")
    }

    /// Connects a TLS client to the app's TLS `TCPServer` (`TCPServer(port:tls:)`)
    /// listening on `port`: the server accepts it, and the simulated
    /// handshake (see ``TestTLS``) has completed or failed when this
    /// returns. The app's connection reports its `tlsSession` (the ALPN
    /// protocol chosen, the server name asked for, the client's
    /// certificate for mutual TLS); a failure reaches the app's
    /// connection's `errors` as on a socket, and closes it
    /// (``TestPeer/isClosedByApp``).
    ///
    /// ```swift
    /// let peer = try app.connect(port: 8443, tls: .client(applicationProtocols: ["chat/1"]))
    /// #expect(peer.isTLSEstablished)
    /// #expect(peer.readLines() == ["Welcome!"])
    /// peer.write("hello\n")
    /// ```
    ///
    /// A plain client (``connect(port:)``) of a TLS server is one that
    /// speaks no TLS: its first bytes fail the server's handshake
    /// (`tlsHandshakeFailed`), and if it sends none the handshake times
    /// out. A TLS client of a plain server is a plain client.
    ///
    /// - Throws: `LoopError.Code.connectionRefused` when no server of the
    ///   app listens on `port`.
    public func connect(port: UInt16, tls: TestTLS) throws(LoopError) -> TestPeer {
        try connect(port: port, simulating: tls.simulated, call: "TestApp.connect(port:tls:)")
    }

    private func connect(port: UInt16, simulating tls: SimulatedTLSPeer?, call: String) throws(LoopError) -> TestPeer {
        // A test context always has its simulated network.
        let network = context.simulatedNetwork!
        let connected: Result<SimulatedPeer, LoopError> = drive(call) {
            let connected: Result<SimulatedPeer, LoopError> = context.run {
                do throws(LoopError) { return .success(try network.connect(port: port, tls: tls)) } catch { return .failure(error) }
            }
            drainDue()
            return connected
        }
        return TestPeer(try connected.get(), app: self)
    }

    /// Delivers a process signal: to the app's `ProcessSignal`s, and, for a
    /// shutdown signal, to its graceful shutdown (a second one during the
    /// shutdown ends the app at once with 128 + the signal number).
    /// `SIGHUP` first reloads the app's configuration, as in a running app.
    /// Not reentrant, as ``run(_:)``.
    public func send(_ signal: ProcessSignal.Name) {
        drive("TestApp.send(_:)") { deliver(signal) }
    }

    private func deliver(_ signal: ProcessSignal.Name) {
        context.run {
            if signal == .hangup, !shutdownSignals.contains(.hangup) { context.systemd.reload { context.configuration.reload() } }
            context.simulatedSignals.send(signal.rawValue)
            if shutdownSignals.contains(signal),
               context.shutdown.signalReceived(signal.rawValue, name: signal.description) != nil {
                finish()
            }
        }
        drainDue()
    }

    /// Runs the app on virtual time until it ends: time jumps from one
    /// scheduled action to the next. An app that nothing keeps running
    /// (no started timer, ...) shuts down as a real one does. Gives up after
    /// `limit` of virtual time (then ``exitStatus`` is still `nil`). Not
    /// reentrant, as ``run(_:)``.
    public func runUntilExit(limit: Duration = .seconds(24 * 3600)) {
        drive("TestApp.runUntilExit(limit:)") {
            let end = scheduler.now + limit
            drainDue()
            while !hasExited, scheduler.now < end {
                if context.shutdown.phase == .running, context.activeWork == 0 {
                    context.run { context.shutdown.idle() }
                    drainDue()
                    continue
                }
                guard let due = scheduler.nextDueTime, due <= end else {
                    moveTime(by: end - scheduler.now)
                    break
                }
                moveTime(by: due - scheduler.now)
            }
        }
    }

    /// Runs the app on virtual time until it ends, as ``runUntilExit(limit:)``
    /// does, letting the app's tasks run each time the clock moves (see
    /// `advance(by:)`, async): for apps whose async code sleeps on
    /// `AppContext.clock`. Not reentrant, as ``run(_:)``.
    public func runUntilExit(limit: Duration = .seconds(24 * 3600)) async {
        let call = "TestApp.runUntilExit(limit:)"
        let end = scheduler.now + limit
        await settle(as: call)
        while !hasExited, scheduler.now < end {
            if context.shutdown.phase == .running, context.activeWork == 0 {
                drive(call) { context.run { context.shutdown.idle() } }
                await settle(as: call)
                continue
            }
            guard let due = scheduler.nextDueTime, due <= end else {
                await moveTime(by: end - scheduler.now, as: call)
                break
            }
            await moveTime(by: due - scheduler.now, as: call)
        }
    }

    // MARK: Shutdown

    /// A shutdown began: the deadline bounds it, drain included.
    private func armDeadline() {
        deadline = scheduler.schedule(after: context.shutdown.deadline) { [weak self] in
            guard let self else { return }
            deadline = nil
            if context.shutdown.deadlinePassed(stillOpen: "\(context.activeWork) resource(s)") {
                finish()
            }
        }
    }

    /// The drain is over: the tree goes, then the services.
    private func closeTree() {
        context.stopPresentation()
        tree?.destroy()
        // The services stop after the tree, in tasks: the app ends once
        // they have (or at the deadline).
        context.beginWork()
        context.services.stop(within: context.shutdown.deadline) { [weak self] in self?.context.endWork() }
    }

    private func checkFinished() {
        guard context.shutdown.phase == .closing, context.activeWork == 0 else { return }
        finish()
    }

    private func finish() {
        if let deadline { scheduler.cancel(deadline) }
        deadline = nil
        context.shutdown.finished()
        context.stopPresentation()
    }
}
