/// A clock that runs actions later, on the main actor.
///
/// The time-based combinators (``EmitterProtocol/debounce(for:scheduler:)``,
/// ``EmitterProtocol/delay(for:scheduler:)``,
/// ``EmitterProtocol/throttle(for:scheduler:latest:)``) are written against it.
/// ComposeApp implements it on libuv timers; ComposeTesting's
/// `VirtualScheduler` on virtual time, so tests advance time exactly and
/// instantly.
@MainActor
public protocol Scheduler: AnyObject, Sendable {
    /// Monotonic time since an arbitrary origin fixed by the scheduler,
    /// readable from any thread (``AppClock/now`` reads it).
    nonisolated var now: Duration { get }

    /// Runs `action` once, `delay` from now (at once for a zero or negative
    /// delay, but never synchronously inside this call).
    func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) -> ScheduledAction

    /// Cancels a scheduled action that has not run yet. Cancelling an action
    /// that already ran or was cancelled does nothing.
    func cancel(_ action: ScheduledAction)
}

/// The handle of an action given to a ``Scheduler``.
public struct ScheduledAction: Hashable, Sendable {
    /// Unique among the actions of one scheduler.
    public let id: UInt64

    /// The handle whose id is `id`, unique among the scheduler's actions:
    /// schedulers make it in `schedule(after:_:)`.
    public init(id: UInt64) {
        self.id = id
    }
}
