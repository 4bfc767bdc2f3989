/// Restarts the ``Supervised`` children of the component that declares it
/// when they fail, as an Erlang/OTP supervisor does, with a backoff
/// between restarts.
///
/// ```swift
/// struct Crawler: Component {
///     let supervisor = Supervisor(strategy: .oneForAll, intensity: .init(restarts: 5, within: .seconds(60)))
///     let fetcher = Supervised(Fetcher())
///     let indexer = Supervised(Indexer())
///     var observers: Void {
///         supervisor.didRestart += { restart in print("\(restart.child) restarted: \(restart.failure)") }
///     }
/// }
/// ```
///
/// **Children.** The supervised children are the ``Supervised`` properties
/// of the component that stores the supervisor, in declaration order. Each
/// runs (its component is made and bound) while the supervising component
/// is active. A component with `Supervised` children and no `Supervisor`
/// supervises them with `Supervisor()`'s defaults.
///
/// **Failures.** A child fails when a component of its subtree
/// - throws an error (other than `CancellationError`) from a task started
///   with ``Component/task(_:)``,
/// - owns a loop resource made `fatal: true` that fails (ComposeApp's
///   `TCPServer` that cannot listen, `ChildProcess` that cannot start or
///   exits unsuccessfully without having been asked to stop),
/// - or calls ``Component/fail(_:)`` (or ``ComponentNode/fail(_:)``).
///
/// The failure goes to the nearest `Supervised` ancestor of the component
/// that failed; its supervisor handles it in the next turn of the clock
/// (never inside the call that reported it): it destroys the children
/// ``Strategy`` names (their subtrees disappear, every observer is
/// cancelled, their tasks are cancelled and their resources closed), waits
/// the ``backoff`` delay on the app's clock, and makes fresh ones with the
/// `Supervised` factories, sending ``didRestart`` for each.
///
/// **Intensity.** More than ``Intensity/restarts`` restarts within
/// ``Intensity/within`` and the supervisor gives up: it destroys all its
/// children, sends ``didGiveUp``, and its own component fails with the
/// ``GiveUp`` — which the supervisor above handles in turn, restarting the
/// subtree that holds this one (with a fresh supervisor).
///
/// **Past the root.** A failure with no `Supervised` ancestor (including a
/// supervisor that gave up at the top) ends the app, as OTP does when its
/// top supervisor gives up: a ``Diagnostic/Code/unsupervisedFailure``
/// diagnostic is reported, the error logged, and a graceful shutdown
/// requested with exit status ``failureExitStatus`` (70, `EX_SOFTWARE`),
/// so a service manager (systemd's `Restart=on-failure`) restarts the
/// process. Failures reported once a shutdown is under way are only
/// logged.
///
/// **Time.** Delays run on the app's clock (``AppContext/scheduler``) and
/// the jitter is drawn from ``AppContext/random``: in a test context both
/// are deterministic (virtual time, a seeded generator).
@MainActor
public final class Supervisor: BoundObject {
    /// Which children restart when one fails.
    public let strategy: Strategy
    /// How many restarts, within how long, before giving up.
    public let intensity: Intensity
    /// The delay before each restart.
    public let backoff: Backoff
    /// Sent for each child restarted, once its fresh component is bound
    /// and active.
    public let didRestart = Emitter<Restart>()
    /// Sent once when the supervisor gives up (restart intensity
    /// exceeded), after its children are destroyed and before its
    /// component fails with the ``GiveUp``.
    public let didGiveUp = Emitter<GiveUp>()

    /// The children, in declaration order (set when the component binds).
    var children: [any SupervisedChild] = []
    /// The restarts within the intensity window: when, and of which child.
    var recentRestarts: [(time: Duration, child: ObjectIdentifier)] = []
    /// Set once the supervisor gave up: later failures are ignored.
    var hasGivenUp = false

    /// A supervisor of the `Supervised` children of the component that
    /// stores it.
    ///
    /// - Parameters:
    ///   - strategy: Which children restart when one fails (one-for-one by
    ///     default).
    ///   - intensity: At most this many restarts within this long; the
    ///     next failure makes the supervisor give up (3 within 5 s by
    ///     default).
    ///   - backoff: The delay before each restart, growing with the
    ///     failing child's recent restarts (100 ms doubling up to 30 s,
    ///     ±20 %, by default; ``Backoff/immediate`` restarts at once, as
    ///     OTP does).
    public nonisolated init(
        strategy: Strategy = .oneForOne,
        intensity: Intensity = .default,
        backoff: Backoff = Backoff()
    ) {
        self.strategy = strategy
        self.intensity = intensity
        self.backoff = backoff
        super.init()
    }

    /// The exit status of an app ended by a failure no supervisor handled:
    /// 70 (`EX_SOFTWARE` in `sysexits.h`, "internal software error").
    public static let failureExitStatus: Int32 = 70

    /// The component that declares this supervisor, once bound.
    var supervising: ComponentNode? { owner }

    /// How many restarts each child has had (by label), for inspection.
    public var restartCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for child in children { counts[child.label] = child.restartCount }
        return counts
    }

    override func claim(by node: ComponentNode) {
        super.claim(by: node)
        guard owner === node else { return }
        node.adopt(didRestart)
        node.adopt(didGiveUp)
    }

    override func didBindChildren(of node: ComponentNode) {
        guard owner === node else { return }
        adoptChildren(of: node)
    }

    override func ownerWillBeDestroyed() {
        children = []
        recentRestarts = []
    }
}

extension Supervisor {
    /// Which children restart when one fails (siblings in declaration
    /// order).
    public enum Strategy: Sendable, Hashable {
        /// Only the child that failed.
        case oneForOne
        /// Every child: they depend on each other.
        case oneForAll
        /// The child that failed and those declared after it (each depends
        /// on those before it).
        case restForOne
    }

    /// The restart intensity: at most ``restarts`` restarts within
    /// ``within``; one more failure and the supervisor gives up.
    public struct Intensity: Sendable, Hashable {
        /// Restarts allowed in the window (0 gives up at the first failure).
        public var restarts: Int
        /// The window's length.
        public var within: Duration

        /// - Parameters:
        ///   - restarts: Restarts allowed within `within`.
        ///   - within: The window's length.
        public init(restarts: Int, within: Duration) {
            self.restarts = restarts
            self.within = within
        }

        /// 3 restarts within 5 seconds.
        public static let `default` = Intensity(restarts: 3, within: .seconds(5))
    }

    /// A child the supervisor restarted (``Supervisor/didRestart``).
    public struct Restart: Sendable, CustomStringConvertible {
        /// The label of the `Supervised` property (`fetcher`).
        public let child: String
        /// How many times this child has been restarted, this one included.
        public let count: Int
        /// What failed: this child, or, for ``Strategy/oneForAll`` and
        /// ``Strategy/restForOne``, the sibling whose failure restarted it.
        public let failure: ComponentFailure
        /// The backoff waited before the restart.
        public let delay: Duration

        public var description: String {
            "\(child) restarted (\(count)) after \(AppEvent.format(delay)): \(failure)"
        }
    }

    /// Why a supervisor gave up (``Supervisor/didGiveUp``); also the error
    /// its component fails with, for the supervisor above.
    public struct GiveUp: Error, CustomStringConvertible {
        /// The path of the supervising component (`app.crawler`).
        public let supervisor: String
        /// The intensity that was exceeded.
        public let intensity: Intensity
        /// The failure that went past it.
        public let failure: ComponentFailure

        public var description: String {
            "\(supervisor) gave up after \(intensity.restarts) restart(s) within \(AppEvent.format(intensity.within)); last failure: \(failure)"
        }
    }
}
