internal import Logging

/// An app's graceful shutdown: one request wins, `willShutDown` is sent,
/// the tree is torn down, and a deadline bounds the whole.
///
/// Reached as ``AppContext/shutdown``, or through ComposeApp's
/// `Application` from an app's observers:
///
/// ```swift
/// context.shutdown.willShutDown += { hub.broadcast("Goodbye!") }
/// context.shutdown.request(status: 0, reason: "done")
/// ```
///
/// The runtime that owns the app (ComposeApp's loop, or a `TestApp`)
/// tears the tree down when the shutdown begins, arms the deadline on its
/// clock (a timer that must not keep the app alive by itself), and reports
/// when the app has finished.
@MainActor
public final class ShutdownCoordinator {
    /// Where an app is in its life.
    public enum Phase: Sendable, Equatable {
        /// Binding and activating; a shutdown request waits for the root to
        /// be active.
        case starting
        /// Running.
        case running
        /// A graceful shutdown has begun.
        case shuttingDown
        /// The app has ended with ``ShutdownCoordinator/exitStatus``.
        case finished
    }

    /// The current phase.
    public private(set) var phase = Phase.starting
    /// The status the app ends with: set by the request that won, changed
    /// by a forced or immediate exit; `nil` until a shutdown is requested.
    public private(set) var exitStatus: Int32?
    /// How long a graceful shutdown may take.
    public let deadline: Duration
    /// The exit status when the deadline forced the shutdown.
    public let forcedExitStatus: Int32
    /// Sent once when a graceful shutdown begins, before the tree is
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

    /// Called when a shutdown begins, after ``willShutDown``: the runtime
    /// arms the deadline and tears the tree down here.
    package var onBegin: (@MainActor () -> Void)?
    /// Called when a shutdown is requested while the app starts: the
    /// runtime cancels the start of its services here.
    package var onRequestWhileStarting: (@MainActor () -> Void)?

    private let logger: Logger
    private var pendingRequest: (status: Int32, reason: String)?

    init(deadline: Duration, forcedExitStatus: Int32, logger: Logger) {
        self.deadline = deadline
        self.forcedExitStatus = forcedExitStatus
        self.logger = logger
    }

    /// Whether a shutdown has been requested or has begun.
    public var isRequested: Bool {
        pendingRequest != nil || phase == .shuttingDown || phase == .finished
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
        case .shuttingDown, .finished:
            break
        }
    }

    /// The runtime calls this once the root is active: a request made
    /// meanwhile begins the shutdown now.
    package func didStart() {
        guard phase == .starting else { return }
        phase = .running
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
        phase = .running
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
        case .shuttingDown:
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
        phase = .finished
    }

    /// Begins the shutdown because nothing keeps the app running.
    package func idle() {
        guard phase == .running else { return }
        begin(status: 0, reason: "nothing left to do")
    }

    private func begin(status: Int32, reason: String) {
        guard phase == .running else { return }
        phase = .shuttingDown
        exitStatus = status
        self.reason = reason
        logger.info("Shutting down (\(reason)).")
        willShutDown.send()
        onBegin?()
    }

    /// The runtime's deadline timer fired. Returns whether the shutdown was
    /// still running (then the exit status is ``forcedExitStatus`` and the
    /// runtime closes what is still open by force).
    package func deadlinePassed(stillOpen: String) -> Bool {
        guard phase == .shuttingDown else { return false }
        logger.error("Shutdown deadline of \(deadline) passed with \(stillOpen) still open; closing by force.")
        exitStatus = forcedExitStatus
        return true
    }
}
