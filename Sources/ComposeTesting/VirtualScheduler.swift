public import Compose
import Synchronization

/// A ``Scheduler`` on virtual time: nothing runs until the test advances the
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
    private struct Entry {
        let id: UInt64
        let due: Duration
        let action: @MainActor () -> Void
    }

    /// The current virtual time (starts at zero), readable from any thread.
    public nonisolated var now: Duration {
        time.withLock { $0 }
    }
    // A lock, not main-actor state: `AppClock.now` reads it from anywhere.
    private nonisolated let time = Mutex<Duration>(.zero)
    private var entries: [Entry] = []
    private var nextID: UInt64 = 1

    public init() {}

    /// Actions scheduled and not yet run or cancelled.
    public var pendingCount: Int { entries.count }

    /// When the next scheduled action is due, if any.
    public var nextDueTime: Duration? { entries.first?.due }

    public func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
        let id = nextID
        nextID += 1
        let due = now + Swift.max(delay, .zero)
        // Keep entries sorted by due time; equal times run in schedule order.
        let index = entries.firstIndex { $0.due > due } ?? entries.endIndex
        entries.insert(Entry(id: id, due: due, action: action), at: index)
        return ScheduledAction(id: id)
    }

    public func cancel(_ action: ScheduledAction) {
        entries.removeAll { $0.id == action.id }
    }

    /// Moves time forward by `duration`, running every action that falls due
    /// on the way (including ones scheduled by those actions), each with
    /// ``now`` set to its due time.
    public func advance(by duration: Duration) {
        let target = now + duration
        while let first = entries.first, first.due <= target {
            entries.removeFirst()
            time.withLock { $0 = first.due }
            first.action()
        }
        time.withLock { $0 = target }
    }

    /// Runs every action due now (zero-delay actions) without moving time.
    public func runDue() {
        advance(by: .zero)
    }
}
