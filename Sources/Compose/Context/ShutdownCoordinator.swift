internal import Logging

/// An app's graceful shutdown: one request wins, `willShutDown` is sent,
/// the app drains its connections, the tree is torn down, and a deadline
/// bounds the whole.
///
/// Reached as ``AppContext/shutdown``, or through ComposeApp's
/// `Application` from an app's observers:
///
/// ```swift
/// context.shutdown.willShutDown += { hub.broadcast("Goodbye!") }
/// context.shutdown.request(status: 0, reason: "done")
/// ```
///
/// A shutdown goes through phases (``phase``, ``didChangePhase``):
///
/// 1. ``Phase/draining``: every listener of the app (`TCPServer`,
///    `UnixServer`) closes, so new connections are refused; every
///    connection they accepted is told (its `willDrain`, where a
///    connection component says goodbye and closes; one whose `willDrain`
///    nobody observes is closed at once); then the app runs as usual —
///    timers, reads, writes — until those connections have closed or
///    ``drainTimeout`` has passed, when the rest are closed. With no
///    connection open, this phase ends at once.
/// 2. ``Phase/closing``: the tree is deactivated and destroyed, the
///    services stop, the handles close.
/// 3. ``Phase/finished``: the app ends with ``exitStatus``.
///
/// ``deadline`` bounds both phases; a second shutdown signal ends the app
/// at once in either.
///
/// The runtime that owns the app (ComposeApp's loop, or a `TestApp`)
/// arms the deadline on its clock when the shutdown begins (a timer that
/// must not keep the app alive by itself), tears the tree down when the
/// closing begins, and reports when the app has finished.
@MainActor
public final class ShutdownCoordinator {
    /// Where an app is in its life.
    public enum Phase: Sendable, Equatable, CustomStringConvertible {
        /// Binding and activating; a shutdown request waits for the root to
        /// be active.
        case starting
        /// Running.
        case running
        /// A graceful shutdown has begun: listeners are closed, accepted
        /// connections were told, and the app runs on until they have
        /// closed or ``ShutdownCoordinator/drainTimeout`` passed.
        case draining
        /// The tree is being torn down, the services stopped and the
        /// handles closed.
        case closing
        /// The app has ended with ``ShutdownCoordinator/exitStatus``.
        case finished

        /// `starting`, `running`, `draining`, `closing` or `finished`.
        public var description: String {
            switch self {
            case .starting: "starting"
            case .running: "running"
            case .draining: "draining"
            case .closing: "closing"
            case .finished: "finished"
            }
        }
    }

    /// The current phase; each change is sent on ``didChangePhase``.
    public private(set) var phase = Phase.starting
    /// Each new ``phase``, sent as it begins: `.running` once the root is
    /// active, then `.draining`, `.closing` and `.finished` (not sent on an
    /// immediate exit). For a status line or an inspection:
    ///
    /// ```swift
    /// context.shutdown.didChangePhase += { phase in
    ///     logger.info("now \(phase), \(context.shutdown.connectionCount) connection(s) open")
    /// }
    /// ```
    public let didChangePhase = Emitter<Phase>()
    /// The status the app ends with: set by the request that won, changed
    /// by a forced or immediate exit; `nil` until a shutdown is requested.
    public private(set) var exitStatus: Int32?
    /// How long a graceful shutdown may take, drain included.
    public let deadline: Duration
    /// How long the ``Phase/draining`` phase may wait for the app's
    /// connections to close before it closes them (5 s unless the runtime
    /// is configured otherwise: `StartupConfiguration.drainTimeout`). Read
    /// when the drain begins. Keep it shorter than ``deadline``, which cuts
    /// a drain that outlasts it (with ``forcedExitStatus``).
    public var drainTimeout: Duration = .seconds(5)
    /// The exit status when the deadline forced the shutdown.
    public let forcedExitStatus: Int32
    /// Sent once when a graceful shutdown begins (``phase`` is
    /// ``Phase/draining``), before the connections are told and the tree is
    /// deactivated.
    public let willShutDown = SignalEmitter()
    /// Sent once when the app has ended — its tree destroyed, nothing left
    /// running — right before the process exits (or a `TestApp` reports
    /// its exit status): the last moment to write, synchronously, what must
    /// survive (persisted state is saved here). Not sent on an immediate
    /// exit (a second shutdown signal during the shutdown).
    public let willExit = SignalEmitter()
    /// Why the shutdown began (`"SIGTERM"`, `"requested by the app"`).
    public private(set) var reason: String?

    /// Called when a shutdown begins, after ``willShutDown`` and before the
    /// drain: the runtime arms the deadline here.
    package var onBegin: (@MainActor () -> Void)?
    /// Called when the ``Phase/closing`` phase begins: the runtime tears
    /// the tree down and stops the services here.
    package var onClose: (@MainActor () -> Void)?
    /// Called when a shutdown is requested while the app starts: the
    /// runtime cancels the start of its services here.
    package var onRequestWhileStarting: (@MainActor () -> Void)?

    private let logger: Logger
    private var pendingRequest: (status: Int32, reason: String)?
    /// The app's listeners and accepted connections.
    private let drain = ShutdownDrain()
    /// The clock of ``drainTimeout``.
    private let scheduler: (any Scheduler)?
    private var drainTimer: ScheduledAction?
    /// The end of the drain, scheduled when its last connection closed.
    private var drainEnd: ScheduledAction?

    init(deadline: Duration, forcedExitStatus: Int32, logger: Logger, scheduler: (any Scheduler)? = nil) {
        self.deadline = deadline
        self.forcedExitStatus = forcedExitStatus
        self.logger = logger
        self.scheduler = scheduler
        drain.onEmpty = { [unowned self] in self.lastConnectionClosed() }
    }

    /// Whether a shutdown has been requested or has begun.
    public var isRequested: Bool {
        pendingRequest != nil || phase == .draining || phase == .closing || phase == .finished
    }

    /// How many connections the app's listeners accepted that are still
    /// open: what ``Phase/draining`` waits for.
    public var connectionCount: Int { drain.connectionCount }

    /// Whether listeners may listen: not once a shutdown has begun.
    package var acceptsConnections: Bool {
        phase == .starting || phase == .running
    }

    /// Requests a graceful shutdown ending with `status`. The first request
    /// wins; one made while the app is starting is honoured as soon as its
    /// root is active.
    public func request(status: Int32 = 0, reason: String = "requested by the app") {
        switch phase {
        case .starting:
            if pendingRequest == nil { pendingRequest = (status, reason) }
            onRequestWhileStarting?()
        case .running:
            begin(status: status, reason: reason)
        case .draining, .closing, .finished:
            break
        }
    }

    /// The runtime calls this once the root is active: a request made
    /// meanwhile begins the shutdown now.
    package func didStart() {
        guard phase == .starting else { return }
        enter(.running)
        if let pending = pendingRequest {
            pendingRequest = nil
            begin(status: pending.status, reason: pending.reason)
        }
    }

    /// The app could not start (its services failed, or a shutdown was
    /// requested while they started): begins the shutdown now, with
    /// `status` and `reason`, or, when `status` is `nil`, with the pending
    /// request's.
    package func startFailed(status: Int32?, reason: String) {
        guard phase == .starting else { return }
        let request = status.map { ($0, reason) } ?? pendingRequest ?? (0, reason)
        pendingRequest = nil
        begin(status: request.0, reason: request.1)
    }

    /// A shutdown signal arrived: begins a graceful shutdown with status 0,
    /// or, during one (or a second one while the app starts), returns the
    /// status to exit with at once (128 + the signal number).
    package func signalReceived(_ number: Int32, name: String) -> Int32? {
        switch phase {
        case .starting:
            guard pendingRequest == nil else {
                // A second signal while the services start (the only time
                // the loop delivers signals before the app runs): they
                // did not heed the first.
                logger.warning("\(name) again while starting: exiting at once.")
                exitStatus = 128 + number
                return 128 + number
            }
            pendingRequest = (0, name)
            onRequestWhileStarting?()
            return nil
        case .running:
            begin(status: 0, reason: name)
            return nil
        case .draining, .closing:
            logger.warning("\(name) during shutdown: exiting at once.")
            exitStatus = 128 + number
            return 128 + number
        case .finished:
            return nil
        }
    }

    /// The app ended: nothing is left to run.
    package func finished() {
        guard phase != .finished else { return }
        if exitStatus == nil { exitStatus = 0 }
        willExit.send()
        enter(.finished)
    }

    /// Begins the shutdown because nothing keeps the app running.
    package func idle() {
        guard phase == .running else { return }
        begin(status: 0, reason: "nothing left to do")
    }

    /// From `.running` (or `.starting`, when the start failed).
    private func begin(status: Int32, reason: String) {
        guard phase == .running || phase == .starting else { return }
        exitStatus = status
        self.reason = reason
        logger.info("Shutting down (\(reason)).")
        enter(.draining)
        willShutDown.send()
        onBegin?()
        // The phase may have moved on: an observer of willShutDown or the
        // runtime may have ended the app.
        guard phase == .draining else { return }
        drain.stopAccepting()
        drain.beginDrain()
        if drain.connectionCount == 0 {
            endDrain()
            return
        }
        logger.info("Draining \(drain.connectionCount) connection(s), for at most \(drainTimeout).")
        drainTimer = scheduler?.schedule(after: drainTimeout) { [weak self] in
            guard let self, phase == .draining else { return }
            drainTimer = nil
            logger.warning("Drain timeout of \(drainTimeout) passed with \(drain.connectionCount) connection(s) open; closing them.")
            endDrain()
        }
    }

    /// The drain is over (its connections closed, or its timeout passed):
    /// closes what is left, then the closing begins. The runtime calls it
    /// too when its loop has nothing left to run during a drain.
    package func endDrain() {
        guard phase == .draining else { return }
        if let drainTimer { scheduler?.cancel(drainTimer) }
        if let drainEnd { scheduler?.cancel(drainEnd) }
        drainTimer = nil
        drainEnd = nil
        drain.closeRemaining()
        enter(.closing)
        onClose?()
    }

    /// The drain's last connection closed: the closing begins on the next
    /// turn (not inside the connection's close notification, which its
    /// observers are still handling).
    private func lastConnectionClosed() {
        guard phase == .draining, drainEnd == nil else { return }
        guard let scheduler else {
            endDrain()
            return
        }
        drainEnd = scheduler.schedule(after: .zero) { [weak self] in
            self?.drainEnd = nil
            self?.endDrain()
        }
    }

    private func enter(_ next: Phase) {
        phase = next
        didChangePhase.send(next)
    }

    /// The runtime's deadline timer fired. Returns whether the shutdown was
    /// still running (then the exit status is ``forcedExitStatus`` and the
    /// runtime closes what is still open by force).
    /// A drain the deadline cuts (a ``drainTimeout`` as long as the
    /// deadline) ends first: the tree is torn down before the runtime
    /// closes the rest.
    package func deadlinePassed(stillOpen: String) -> Bool {
        guard phase == .draining || phase == .closing else { return false }
        logger.error("Shutdown deadline of \(deadline) passed with \(stillOpen) still open; closing by force.")
        exitStatus = forcedExitStatus
        endDrain()
        return true
    }

    // MARK: What the drain closes and waits for

    /// A listener began listening: the drain closes it first. Returns
    /// `false` (and tracks nothing) once a shutdown has begun, when the
    /// listener must not listen.
    package func listenerDidStart(_ listener: some DrainableListener) -> Bool {
        guard acceptsConnections else { return false }
        drain.add(listener)
        return true
    }

    /// A listener stopped listening.
    package func listenerDidStop(_ listener: ObjectIdentifier) {
        drain.remove(listener: listener)
    }

    /// A listener accepted `connection`: the drain tells it and waits for
    /// it. Accepted during a drain, it is told at once; once the closing
    /// has begun it is not tracked (the tree's teardown closes it).
    package func connectionDidOpen(_ connection: some DrainableConnection) {
        guard phase != .closing, phase != .finished else { return }
        drain.add(connection)
        if phase == .draining { connection.beginDrain() }
    }

    /// A connection the drain tracks closed (or went away).
    package func connectionDidClose(_ connection: ObjectIdentifier) {
        drain.remove(connection: connection)
    }
}
