public import Compose
import HeapModule
import Synchronization

/// A `Scheduler` on virtual time: nothing runs until the test advances the
/// clock, and then everything due runs in time order, exactly and instantly.
///
/// ```swift
/// let scheduler = VirtualScheduler()
/// let quiet = typing.debounce(for: .milliseconds(300), scheduler: scheduler)
/// typing.send("a")
/// scheduler.advance(by: .milliseconds(300))   // quiet sends "a" now
/// ```
@MainActor
public final class VirtualScheduler: Scheduler {
    /// When an action is due; ties run in schedule order (ids grow).
    private struct Key: Comparable {
        let due: Duration
        let id: UInt64

        static func < (a: Key, b: Key) -> Bool {
            a.due != b.due ? a.due < b.due : a.id < b.id
        }
    }

    /// The current virtual time (starts at zero), readable from any thread.
    public nonisolated var now: Duration {
        time.withLock { $0 }
    }
    // A lock, not main-actor state: `AppClock.now` reads it from anywhere.
    private nonisolated let time = Mutex<Duration>(.zero)
    /// Due times in a heap (scheduling and running cost O(log n), so a
    /// test that queues many thousands of writes or timers stays fast); a
    /// cancelled action's key stays until it reaches the top.
    private var keys = Heap<Key>()
    /// The actions not yet run or cancelled, by id.
    private var actions: [UInt64: @MainActor () -> Void] = [:]
    private var nextID: UInt64 = 1
    /// Whether ``advance(by:)`` or ``runDue()`` is running actions: called
    /// again from one of them, they stop the process (see
    /// `ReentryGuard`); the drivers built on this clock (`TestApp`,
    /// `TestHost`) check it too.
    private var reentry = ReentryGuard()

    /// What runs inside the clock, for the message of a re-entrant call.
    static let actionCode = "an action of the virtual clock (a timer, a delivery) or an observer"

    /// Whether the clock is running its due actions (``advance(by:)``,
    /// ``runDue()``).
    var isRunningActions: Bool { reentry.isDriving }

    /// A scheduler at time zero with nothing pending.
    public init() {}

    /// Actions scheduled and not yet run or cancelled.
    public var pendingCount: Int { actions.count }

    /// When the next scheduled action is due, if any.
    public var nextDueTime: Duration? {
        dropCancelled()
        return keys.min?.due
    }

    public func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
        let id = nextID
        nextID += 1
        keys.insert(Key(due: now + Swift.max(delay, .zero), id: id))
        actions[id] = action
        return ScheduledAction(id: id)
    }

    public func cancel(_ action: ScheduledAction) {
        actions[action.id] = nil
    }

    /// Moves time forward by `duration`, running every action that falls due
    /// on the way (including ones scheduled by those actions), each with
    /// ``now`` set to its due time.
    ///
    /// Not reentrant: called from one of the actions it runs (or an
    /// observer they call), it stops the process, since time would go back
    /// when the inner call returned.
    public func advance(by duration: Duration) {
        run(by: duration, as: "VirtualScheduler.advance(by:)")
    }

    private func run(by duration: Duration, as call: @autoclosure () -> String) {
        reentry.enter(call(), from: Self.actionCode)
        defer { reentry.leave() }
        let target = now + duration
        while let first = keys.min, first.due <= target {
            keys.removeMin()
            guard let action = actions.removeValue(forKey: first.id) else { continue }
            time.withLock { $0 = first.due }
            action()
        }
        time.withLock { $0 = target }
    }

    /// Removes the keys of cancelled actions from the top of the heap.
    private func dropCancelled() {
        while let first = keys.min, actions[first.id] == nil {
            keys.removeMin()
        }
    }

    /// Runs every action due now (zero-delay actions) without moving time.
    /// Not reentrant, as ``advance(by:)``.
    public func runDue() {
        run(by: .zero, as: "VirtualScheduler.runDue()")
    }
}
