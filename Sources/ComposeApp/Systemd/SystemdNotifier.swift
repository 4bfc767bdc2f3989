internal import CLibUV
import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The app's side of systemd's notify protocol (`sd_notify`), spoken
/// without libsystemd: datagrams to `$NOTIFY_SOCKET`. Reached as
/// `AppContext.systemd` or, from an app's code, ``Application/systemd``.
///
/// The runtime sends what the service manager needs without the app doing
/// anything:
///
/// - `READY=1` once the app's services have started and its root is active
///   (a `Type=notify` unit is "started" then);
/// - `RELOADING=1` with `MONOTONIC_USEC=` when `SIGHUP` reloads the
///   configuration, and `READY=1` after it (a `Type=notify-reload` unit);
/// - `STOPPING=1` when the graceful shutdown begins;
/// - `WATCHDOG=1` every half of `$WATCHDOG_USEC` (`WatchdogSec=`), from a
///   timer on the app's event loop: a loop that is blocked stops pinging,
///   and systemd restarts the service.
///
/// The app adds its status line, shown by `systemctl status`, and extends
/// systemd's timeout while a long shutdown runs:
///
/// ```swift
/// Application.systemd.status = "serving \(clients.count) clients"
/// context.systemd.extendTimeout(by: .seconds(30))
/// ```
///
/// Without `$NOTIFY_SOCKET` (not run by systemd, or by a unit that is not
/// `Type=notify`) nothing at all is sent, so the calls are always safe. A
/// failed send (systemd gone, queue full) is logged once and otherwise
/// ignored; it never stops the app. In a test context (`TestApp`) nothing
/// reaches a socket: `TestApp.runsUnderSystemd(_:)` turns the protocol on,
/// and the messages are recorded (`TestApp.systemdNotifications`).
@MainActor
public final class SystemdNotifier {
    /// What systemd set in the environment, read at startup; ``SystemdEnvironment/none``
    /// until the runtime has started the notifier, and for good outside
    /// systemd.
    public private(set) var environment = SystemdEnvironment.none
    /// The status line last set (sent as `STATUS=`), kept even when nothing
    /// is sent.
    ///
    /// Setting it sends `STATUS=` with the new text (a line break becomes a
    /// space, since the protocol is line-based), unless it is unchanged;
    /// `nil` clears the status line.
    public var status: String? {
        didSet {
            guard status != oldValue else { return }
            sendStatus()
        }
    }
    /// The first failed send, if any (the only one logged).
    public private(set) var failure: LoopError?
    private var hasSentStopping = false
    /// Whether the last `STATUS=` sent was the drain's.
    private var isShowingDrain = false

    /// How many notifications were sent or tried (in a test context:
    /// recorded).
    public private(set) var sentCount = 0
    /// The messages of a test context, in order (see `TestApp.systemdNotifications`).
    package private(set) var recorded: [String] = []

    /// Weak: the context owns its notifier.
    private weak var context: AppContext?
    private var socket: NotifySocket?
    private var watchdog: LoopTimer?
    private var hasStarted = false
    /// Whether notifications go out: a socket is open (a simulated one in a
    /// test context) and the app has not exited.
    private var isOpen = false

    init(context: AppContext) {
        self.context = context
    }

    /// A notifier of no app: it is never started, so it sends nothing.
    /// (`Application.systemd` outside a running app; a throwaway context
    /// would be released at once, leaving the weak reference nil anyway.)
    private init() {}

    static func detached() -> SystemdNotifier {
        SystemdNotifier()
    }

    /// Whether notifications go anywhere: started with a `$NOTIFY_SOCKET`
    /// and the app has not exited.
    public var isEnabled: Bool { isOpen }

    /// How often `WATCHDOG=1` is sent: half of `$WATCHDOG_USEC`; `nil`
    /// without a watchdog (or without `$NOTIFY_SOCKET`).
    public var watchdogInterval: Duration? {
        guard environment.notifySocket != nil, let timeout = environment.watchdogTimeout else { return nil }
        return timeout / 2
    }

    /// Asks systemd for `duration` more before it times the current state
    /// out (`EXTEND_TIMEOUT_USEC=`): during the start, the run (with
    /// `RuntimeMaxSec=`) or the stop, whose `TimeoutStopSec=` would
    /// otherwise kill a long drain. Send it again before `duration` is up
    /// for more; it never shortens the unit's timeout.
    ///
    /// ```swift
    /// Application.willShutDown += {
    ///     Application.systemd.status = "draining \(connections.count) connections"
    ///     Application.systemd.extendTimeout(by: .seconds(30))
    /// }
    /// ```
    ///
    /// - Parameter duration: How long from now systemd should wait for the
    ///   next notification; a zero or negative one sends nothing.
    public func extendTimeout(by duration: Duration) {
        let microseconds = Self.microseconds(duration)
        guard microseconds > 0 else { return }
        send("EXTEND_TIMEOUT_USEC=\(microseconds)")
    }

    /// Sends `assignments` (`KEY=VALUE`, one per line) as one notification,
    /// for the parts of the protocol the runtime does not send itself
    /// (`ERRNO=`, `BUSERROR=`, ...). Nothing is sent without
    /// `$NOTIFY_SOCKET`.
    ///
    /// ```swift
    /// Application.systemd.notify("STATUS=Disk full", "ERRNO=28")
    /// ```
    public func notify(_ assignments: String...) {
        guard !assignments.isEmpty else { return }
        send(assignments.joined(separator: "\n"))
    }

    // MARK: The runtime's calls

    /// Starts the protocol with `environment` (the runtime's, read at
    /// startup; a test's): opens the socket, starts the watchdog timer,
    /// and sends `STOPPING=1` when the shutdown begins. Only the first call
    /// counts.
    package func start(environment: SystemdEnvironment) {
        guard !hasStarted, let context else { return }
        hasStarted = true
        self.environment = environment
        guard let name = environment.notifySocket else { return }
        if !context.isSimulated {
            do {
                socket = try NotifySocket(name: name)
            } catch {
                reportFailure(error)
                return
            }
        }
        isOpen = true
        context.shutdown.willShutDown += { [weak self] in self?.stopping() }
        context.shutdown.didChangePhase += { [weak self] phase in self?.shutdownPhaseDidChange(phase) }
        context.shutdown.willExit += { [weak self] in self?.finish() }
        if status != nil { sendStatus() }
        startWatchdog()
    }

    /// The app's root is active (and its services started): sends
    /// `READY=1`, unless a shutdown began meanwhile.
    package func ready() {
        guard context?.shutdown.phase == .running else { return }
        send("READY=1")
    }

    /// Runs `reload` between `RELOADING=1` (with `MONOTONIC_USEC=`, the
    /// time on `CLOCK_MONOTONIC`) and `READY=1`.
    package func reload(_ reload: () -> Void) {
        reloading()
        reload()
        send("READY=1")
    }

    /// Sends `RELOADING=1` with `MONOTONIC_USEC=` (the time on
    /// `CLOCK_MONOTONIC`), for a reload that ends later with `READY=1`:
    /// the workers mode's parent, whose workers reload in their own time.
    package func reloading() {
        send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds)")
    }

    // MARK: Sending

    private func startWatchdog() {
        guard let interval = watchdogInterval, let context else { return }
        // On the app's loop (or virtual clock), without keeping the app
        // alive: it pings only while the loop runs its timers.
        let timer = context.run { LoopTimer(every: interval, keepsLoopAlive: false, startsWithComponent: false) }
        timer += { [weak self] in self?.send("WATCHDOG=1") }
        context.run { timer.start() }
        watchdog = timer
    }

    /// The shutdown's drain as a `STATUS=` line (unless the app set its
    /// own status) and, while connections drain, `EXTEND_TIMEOUT_USEC=`
    /// for the shutdown's deadline, which bounds the app's own wait: a
    /// drain longer than `TimeoutStopSec=` is not killed half-way.
    private func shutdownPhaseDidChange(_ phase: ShutdownCoordinator.Phase) {
        guard let shutdown = context?.shutdown else { return }
        switch phase {
        case .draining:
            // The phase changes before `willShutDown` is sent.
            stopping()
            let count = shutdown.connectionCount
            guard count > 0 else { return }
            if status == nil {
                send("STATUS=Draining \(count) connection\(count == 1 ? "" : "s")")
                isShowingDrain = true
            }
            extendTimeout(by: shutdown.deadline)
        case .closing:
            if isShowingDrain, status == nil { send("STATUS=Closing") }
        case .starting, .running, .finished:
            break
        }
    }

    /// `STOPPING=1`, once, when the shutdown begins.
    private func stopping() {
        guard !hasSentStopping else { return }
        hasSentStopping = true
        send("STOPPING=1")
    }

    private func sendStatus() {
        let line = (status ?? "").map { $0.isNewline ? " " : $0 }
        send("STATUS=" + String(line))
    }

    private func finish() {
        isOpen = false
        watchdog?.close()
        watchdog = nil
        socket = nil
    }

    private func send(_ message: String) {
        guard isEnabled, let context else { return }
        sentCount += 1
        if context.isSimulated {
            recorded.append(message)
            return
        }
        do {
            try socket?.send(message)
        } catch {
            reportFailure(error)
        }
    }

    private func reportFailure(_ error: LoopError) {
        guard failure == nil else { return }
        failure = error
        context?.logger.error("Cannot notify systemd: \(error). Notifications that fail are not logged again.")
    }

    /// Now on the clock systemd compares `MONOTONIC_USEC` with: the
    /// monotonic clock, or a test context's virtual time.
    private var monotonicMicroseconds: Int64 {
        if let context, context.isSimulated, let scheduler = context.scheduler {
            return Self.microseconds(scheduler.now)
        }
        // libuv's clock is CLOCK_MONOTONIC, systemd's.
        return Int64(uv_hrtime() / 1000)
    }

    private static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
