import Compose
import Logging

/// A timer on the event loop: repeating (`every:`) or one-shot (`after:`).
/// It is an emitter: observe it with `+=`.
///
/// Stored in a component, it starts when the component appears, stops when
/// it disappears, and closes its handle when the component is destroyed:
///
/// ```swift
/// struct Heartbeat: Component {
///     let tick = LoopTimer(every: .seconds(1))
///     var observers: Void {
///         tick += { print("still here") }
///     }
/// }
/// ```
///
/// Outside a component, call ``start()`` and ``close()`` yourself. A timer
/// made with `keepsLoopAlive: false` does not keep the app running on its
/// own (libuv's unref), which suits housekeeping. libuv timers have
/// millisecond resolution.
///
/// **Clock.** A timer runs on the clock of the app it belongs to: the
/// context of the tree it is bound in, else the running app's
/// (`AppContext.current`). In an app that is a libuv timer; in a test
/// context (`TestApp`, `TestHost`) it is the virtual clock, so
/// `app.advance(by: .minutes(10))` fires a one-minute timer ten times,
/// at once.
@MainActor
public final class LoopTimer: EmitterProtocol, LoopResource {
    /// Sent each time the timer fires.
    public let emitter = SignalEmitter()
    /// The interval of a repeating timer, or the delay of a one-shot one.
    public let interval: Duration
    /// Whether the timer fires again after each interval.
    public let repeats: Bool
    /// Whether the timer keeps the loop running while it is started.
    public let keepsLoopAlive: Bool
    /// Whether it starts when its component appears.
    public let startsWithComponent: Bool
    private var handle: TimerHandle?
    /// ``interval`` in libuv's milliseconds (rounded up).
    private lazy var intervalMilliseconds = TimerHandle.milliseconds(interval)
    private var isClosed = false
    /// On a virtual clock: the scheduled firing and the context it keeps
    /// running.
    private var virtual: (scheduler: any Scheduler, action: ScheduledAction?, context: AppContext?)?

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [emitter] }

    /// A timer that fires every `interval`, first after one interval.
    ///
    /// - Parameters:
    ///   - interval: Time between firings.
    ///   - keepsLoopAlive: `false` for a timer that should not keep the app
    ///     running by itself.
    ///   - startsWithComponent: `false` to start it yourself even inside a
    ///     component (it still stops when the component disappears).
    public init(every interval: Duration, keepsLoopAlive: Bool = true, startsWithComponent: Bool = true) {
        self.interval = interval
        self.repeats = true
        self.keepsLoopAlive = keepsLoopAlive
        self.startsWithComponent = startsWithComponent
    }

    /// A timer that fires once, `delay` after it starts.
    public init(after delay: Duration, keepsLoopAlive: Bool = true, startsWithComponent: Bool = true) {
        self.interval = delay
        self.repeats = false
        self.keepsLoopAlive = keepsLoopAlive
        self.startsWithComponent = startsWithComponent
    }

    isolated deinit {
        handle?.close()
        stopVirtual()
    }

    /// Whether the timer is counting down.
    public private(set) var isRunning = false

    /// Starts (or restarts) the countdown. Does nothing once closed.
    public func start() {
        guard !isClosed else { return }
        // Started on a loop before (the handle is made by a first start and
        // goes at close): a restart, an idle timeout's on every line, only
        // sets libuv's timer again.
        if let handle {
            handle.keepsLoopAlive = keepsLoopAlive
            isRunning = true
            handle.restart(afterMilliseconds: intervalMilliseconds, repeatMilliseconds: repeats ? intervalMilliseconds : 0)
            return
        }
        let context = emitter.ownerContext ?? AppContext.current
        if let context, context.isSimulated {
            guard let scheduler = context.scheduler else {
                context.report(Diagnostic(.noScheduler, "LoopTimer cannot start: its test context has no scheduler. Make the context with one (TestApp and TestHost do)."))
                return
            }
            startVirtual(on: scheduler, keeping: keepsLoopAlive ? context : nil)
            return
        }
        let handle: TimerHandle
        do {
            handle = try TimerHandle(loop: EventLoop.resolve(context, for: "LoopTimer.start"))
        } catch {
            logger.error("LoopTimer could not start: \(error)")
            return
        }
        self.handle = handle
        handle.keepsLoopAlive = keepsLoopAlive
        isRunning = true
        let emitter = emitter
        handle.start(after: interval, repeat: repeats ? interval : .zero) { [weak self] in
            if self?.repeats == false { self?.isRunning = false }
            emitter.send()
        }
    }

    private func startVirtual(on scheduler: any Scheduler, keeping context: AppContext?) {
        stopVirtual()
        context?.beginWork()
        virtual = (scheduler, nil, context)
        isRunning = true
        scheduleVirtual()
    }

    private func scheduleVirtual() {
        guard let scheduler = virtual?.scheduler else { return }
        virtual?.action = scheduler.schedule(after: interval) { [weak self] in
            self?.virtualFired()
        }
    }

    private func virtualFired() {
        virtual?.action = nil
        if repeats {
            scheduleVirtual()
        } else {
            stopVirtual()
        }
        emitter.send()
    }

    private func stopVirtual() {
        guard let (scheduler, action, context) = virtual else { return }
        virtual = nil
        isRunning = false
        if let action { scheduler.cancel(action) }
        context?.endWork()
    }

    /// Stops the countdown; ``start()`` starts it again from zero.
    public func stop() {
        handle?.stop()
        stopVirtual()
        isRunning = false
    }

    /// Stops the timer for good and closes its handle. Idempotent.
    public func close() {
        isClosed = true
        isRunning = false
        handle?.close()
        handle = nil
        stopVirtual()
    }

}
