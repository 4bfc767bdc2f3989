internal import CLibUV
import Compose
import Logging

/// A `Scheduler` on libuv timers, so `debounce`, `delay` and `throttle`
/// run on real time in apps: the scheduler of a live app context
/// (`AppContext.scheduler`). Every scheduled action owns a one-shot timer
/// handle that is closed when it fires or is cancelled.
@MainActor
public final class LoopScheduler: Scheduler {
    private let loop: EventLoop
    private let origin: UInt64
    private var timers: [UInt64: TimerHandle] = [:]
    private var nextID: UInt64 = 1

    init(loop: EventLoop) {
        self.loop = loop
        origin = loop.nanoseconds
    }

    /// Time since this scheduler was created, readable from any thread
    /// (`uv_hrtime` is).
    public nonisolated var now: Duration {
        .nanoseconds(Int64(uv_hrtime() - origin))
    }

    /// Runs `action` after `delay` (libuv timers have millisecond resolution).
    public func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
        let id = nextID
        nextID += 1
        do {
            let timer = try TimerHandle(loop: loop)
            timers[id] = timer
            timer.start(after: delay) { [weak self] in
                self?.timers.removeValue(forKey: id)?.close()
                action()
            }
        } catch {
            Diagnostics.logger.error("LoopScheduler could not schedule an action: \(error)")
        }
        return ScheduledAction(id: id)
    }

    public func cancel(_ action: ScheduledAction) {
        timers.removeValue(forKey: action.id)?.close()
    }
}
