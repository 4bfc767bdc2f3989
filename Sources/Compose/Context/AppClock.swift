/// The app's clock as a Swift `Clock`: async code sleeps on it and wakes
/// in the app's time — real time in an app, virtual time in a test, where
/// `await app.advance(by:)` wakes sleepers in time order.
///
/// ```swift
/// tick += {
///     Task {
///         try await Application.clock.sleep(for: .seconds(5))
///         connection.writeLine("five seconds later")
///     }
/// }
/// ```
///
/// It reads and schedules on the context's ``Scheduler``. A sleep keeps
/// the app running as a pending timer does, and ends with
/// `CancellationError` when its task is cancelled or the app's shutdown
/// tears its tree down (sleeps go on while the shutdown drains the app's
/// connections, see ``ShutdownCoordinator/Phase/draining``). A clock of no app (``AppContext/current`` was `nil`) runs on
/// `ContinuousClock`.
public struct AppClock: Clock {
    /// A point in the app's time: the time since its scheduler's origin.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the clock's origin.
        public var offset: Duration

        /// The instant `offset` after the clock's origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    let source: AppClockSource

    /// A clock of no app, on `ContinuousClock` (from now).
    public init() {
        source = AppClockSource(scheduler: nil)
    }

    init(source: AppClockSource) {
        self.source = source
    }

    public var now: Instant {
        Instant(offset: source.now)
    }

    public var minimumResolution: Duration {
        source.scheduler == nil ? ContinuousClock().minimumResolution : .milliseconds(1)
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        guard source.scheduler != nil, let context = source.context else {
            try await ContinuousClock().sleep(for: now.duration(to: deadline), tolerance: tolerance)
            return
        }
        try await context.sleep(until: deadline.offset)
    }
}

/// What an ``AppClock`` reads and sleeps on: its context's scheduler.
final class AppClockSource: Sendable {
    let scheduler: (any Scheduler)?
    /// Set once, in the context's init, before the clock can be handed out;
    /// only read afterwards. Weak: the context owns this source.
    nonisolated(unsafe) weak var context: AppContext?
    private let origin = ContinuousClock.now

    init(scheduler: (any Scheduler)?) {
        self.scheduler = scheduler
    }

    var now: Duration {
        scheduler?.now ?? origin.duration(to: ContinuousClock.now)
    }
}
