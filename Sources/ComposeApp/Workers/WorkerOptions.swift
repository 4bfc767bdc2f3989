public import Compose

/// The workers mode: the app's process starts `count` copies of itself
/// (the workers), which share the app's ports, and supervises them; past
/// one core, a daemon scales with processes, not threads.
///
/// ```swift
/// extension ChatApp: StartupComponent {
///     static var configuration: StartupConfiguration {
///         StartupConfiguration(workers: WorkerOptions(count: 4))
///     }
/// }
/// ```
///
/// The setting `workers` overrides ``count``: `--workers 4` on the command
/// line, `<PREFIX>_WORKERS=4` in the environment, `"workers": 4` in the
/// configuration file (`--help` lists it). 0, the default, runs the app as
/// one process, as without this mode.
///
/// **The parent** runs no component tree and starts no service: it starts
/// the workers, each the same executable (`/proc/self/exe`, so an upgrade
/// on disk takes effect at the next start of the parent, never halfway)
/// with the same arguments and environment plus `COMPOSE_WORKER=<index>`
/// (0, 1, ...) and `COMPOSE_WORKER_PARENT=<its pid>`. Workers share its
/// standard output and error, read `/dev/null`, and run in process groups
/// of their own (a Ctrl-C at a terminal reaches the parent only, which
/// passes it on). Sockets the parent inherited (socket activation) are
/// passed on to every worker, which listen on them together.
///
/// - A worker that dies (killed by a signal, or exiting with a status
///   other than 0) is started again after ``backoff``'s delay, which grows
///   with its consecutive failures and starts again from the first once a
///   worker has run ``stablePeriod``. One that exits 0 by itself is not.
/// - `SIGTERM` and `SIGINT` (the configuration's shutdown signals) are
///   passed on to every worker, and so is `SIGHUP` (reload); a second
///   shutdown signal is passed on too (the workers then exit at once).
///   Then the parent waits until every worker has exited, at most the
///   shutdown deadline plus ``stopGracePeriod``, past which it kills those
///   left with `SIGKILL`.
/// - More than ``maximumRestarts`` restarts within ``restartPeriod`` (a
///   worker that cannot start: its port is taken, its configuration is
///   wrong) stop every worker, and the parent exits with
///   ``restartLimitExitStatus``, for systemd's `Restart=` or an operator to
///   see.
/// - A worker exiting with status 64 (its command line is wrong: an option
///   the app has no setting for) is not started again: every worker would
///   fail the same way. The parent stops the others and exits 64.
///
/// **The parent's exit status**: 0 when a shutdown was asked for and every
/// worker exited 0 (or when every worker exited 0 by itself); otherwise the
/// first status other than 0 a worker exited with during the shutdown
/// (128 + the signal for a worker killed by one); the configuration's
/// `forcedExitStatus` when workers were still running at the deadline;
/// ``restartLimitExitStatus`` past the restart limit; 64 after a usage
/// error; 1 when it cannot
/// start (no event loop, no signal handling).
///
/// **Workers** are the app as usual, with `AppContext.workerIndex` set.
/// Their `TCPServer`s bind with `SO_REUSEPORT` (``TCPServer/reusePort``),
/// so they all listen on the same port and the kernel spreads connections
/// among them; give them a fixed port (port 0 would give each worker a
/// different one). A `UnixServer` cannot share its path: give each worker
/// its own (``Application/workerIndex``), or use socket activation, whose
/// socket they share. A worker asks Linux to send it `SIGTERM` when the
/// parent dies (`PR_SET_PDEATHSIG`), so none outlives a parent killed with
/// `SIGKILL`.
///
/// Under systemd, give the unit `KillMode=mixed`: with the default
/// (`control-group`) systemd sends `SIGTERM` to the workers too, and the
/// parent's copy would be their second signal. With `Type=notify` the
/// parent speaks for the workers, whose `$NOTIFY_SOCKET` is a socket of the
/// parent's (systemd's is not passed on): `READY=1` once every worker has
/// said it is ready (so `systemctl start` returns when all serve),
/// `STATUS=` with how many are, `RELOADING=1` at `SIGHUP` and `READY=1`
/// once every worker has reloaded, `STOPPING=1`, the workers'
/// `EXTEND_TIMEOUT_USEC=` while they drain, and `WATCHDOG=1` from its own
/// loop.
public struct WorkerOptions: Sendable, Equatable, ExpressibleByIntegerLiteral {
    /// How many workers to run; 0 (the default) for none: the app runs
    /// as one process. The setting `workers` overrides it.
    public var count: Int
    /// The delays before a dead worker is started again.
    public var backoff: Backoff
    /// How long a worker must run for its next failure to count as a first
    /// one (the delay starts again from `Backoff.initial`).
    public var stablePeriod: Duration
    /// The most restarts (of all workers together) within
    /// ``restartPeriod``; one more and the parent gives up.
    public var maximumRestarts: Int
    /// The period ``maximumRestarts`` counts restarts in.
    public var restartPeriod: Duration
    /// How long the parent waits for its workers after the shutdown
    /// deadline (theirs) before it kills them.
    public var stopGracePeriod: Duration

    /// The parent's exit status when it gave up restarting workers (70,
    /// `EX_SOFTWARE`).
    public static let restartLimitExitStatus: Int32 = 70
    /// The configuration key that overrides ``count`` (`--workers`).
    public static let settingKey = "workers"

    /// - Parameters:
    ///   - count: How many workers; 0 for none.
    ///   - backoff: The delays before restarts (100 ms doubling up to
    ///     30 s, ±20 %, by default).
    ///   - stablePeriod: How long a worker must run for its failures to be
    ///     forgotten.
    ///   - maximumRestarts: The most restarts within `restartPeriod`.
    ///   - restartPeriod: The period `maximumRestarts` counts in.
    ///   - stopGracePeriod: The wait for workers past the shutdown
    ///     deadline.
    public init(
        count: Int = 0,
        backoff: Backoff = Backoff(),
        stablePeriod: Duration = .seconds(10),
        maximumRestarts: Int = 20,
        restartPeriod: Duration = .seconds(60),
        stopGracePeriod: Duration = .seconds(5)
    ) {
        self.count = count
        self.backoff = backoff
        self.stablePeriod = stablePeriod
        self.maximumRestarts = maximumRestarts
        self.restartPeriod = restartPeriod
        self.stopGracePeriod = stopGracePeriod
    }

    /// `workers: 4` is `WorkerOptions(count: 4)`.
    public init(integerLiteral count: Int) {
        self.init(count: count)
    }
}
