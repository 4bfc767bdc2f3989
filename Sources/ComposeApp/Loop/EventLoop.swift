internal import CLibUV
import Compose
import Dispatch
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A libuv loop of one app context, run on the main thread.
///
/// `StartupComponent.main()` makes one for the app's context
/// (``AppContext/live(name:logger:shutdownDeadline:forcedExitStatus:)``);
/// tests of real I/O make their own. Each owns its `uv_loop_t` (not libuv's
/// process-wide default loop) and its read buffer, so nothing of it is
/// shared between contexts. A loop belongs to the thread that made it
/// (``isOnLoopThread``, asserted in debug builds).
///
/// While the app runs it also drains the main dispatch queue: libdispatch
/// signals a file descriptor when the main queue has work, the loop polls
/// it and calls libdispatch's drain hook. That is what makes
/// `Task { @MainActor in }`, `await MainActor.run { }`,
/// `DispatchQueue.main.async { }` and `Task.sleep` work inside observers.
/// The poll does not keep the loop alive by itself: the loop runs while a
/// timer, signal, socket, stream or child process handle is active.
///
/// Creating a loop sets `SIGPIPE` and `SIGXFSZ` to ignored when their
/// action is the default one (``FatalSignalDefaults``).
@MainActor
final class EventLoop {
    let uv: UnsafeMutablePointer<uv_loop_t>
    private var mainQueuePoll: PollHandle?
    /// Torn down (``tearDown()``): `uv` is freed, nothing may use it.
    private(set) var isClosed = false
    let logger: Logger
    /// The handles that end each turn (see ``atEndOfTurn(_:)``).
    var turnHandles: (before: TurnHandle, after: TurnHandle)?
    /// The turn number, the end-of-turn work and the readers a budget
    /// paused (see ``TurnState``). Behind a pointer that is never
    /// reassigned, as ``counters``; freed in the deinit.
    // nonisolated(unsafe): a `let` never reassigned, read from the turn
    // handles' C callbacks (``turnState(of:)``) before they enter the main
    // actor; the pointee is touched only on the loop's thread, inside
    // `uv_run`, which main-actor code runs (see ``LoopHandle/dispatch(_:as:counted:_:_:)``).
    nonisolated(unsafe) let turnState: UnsafeMutablePointer<TurnState> = {
        let state = UnsafeMutablePointer<TurnState>.allocate(capacity: 1)
        state.initialize(to: TurnState())
        return state
    }()
    /// The most bytes one stream delivers in one turn before it waits for
    /// the next (1 MiB): one flooding stream cannot hold the loop.
    var readBudgetPerTurn: Int {
        get { turnState.pointee.readBudgetPerTurn }
        set { turnState.pointee.readBudgetPerTurn = newValue }
    }
    /// The most lines one reader delivers in one turn before it waits for
    /// the next (1,024; see ``LineDelivery``): one stream of short lines
    /// cannot hold the loop either.
    var lineBudgetPerTurn = 1_024
    /// While a paused reader holds lines it read (its backlog), the next
    /// turn must not wait for I/O: an idle handle, started then.
    var backlogTurn: TurnHandle?
    /// While the loop busy-polls (``busyPolling``), an idle handle, started
    /// so that the turn does not wait; made when busy polling is turned on.
    var busyPollTurn: TurnHandle?
    /// What runs at the end of each turn (see ``observeTurnEnds(_:)``).
    var turnObservers: [@MainActor () -> Void] = []
    /// The most bytes one stream delivered in one turn so far (for tests
    /// of the read budget; counted in debug builds only, off the release
    /// read path).
    var largestReadInTurn = 0
    /// The most lines one reader delivered in one turn so far (for tests
    /// of the line budget; debug builds only).
    var mostLinesInTurn = 0
    /// How many write requests its streams made (`uv_try_write` and
    /// `uv_write` calls, each at most one `write`/`writev` system call
    /// when the socket takes the bytes), for tests of write batching;
    /// counted in debug builds only, off the release write path.
    var writeCalls = 0

    /// The buffer every stream of the loop (sockets, pipes, terminal) reads
    /// into (see ``ReadBuffer``); reached from libuv's allocation and read
    /// callbacks through ``readBufferSlot(of:)``. Between deliveries no
    /// chunk holds it: a delivery whose observers kept a chunk replaces it
    /// (``renewReadBufferIfKept(_:)``), so the allocation callback hands it
    /// out without a check. During a delivery the slot is empty: its
    /// reference moved into the chunk (see `streamHandleRead`), and nothing
    /// reads the slot until it is back (libuv allocates only for its next
    /// read; ``readBuffer(of:)`` asserts it). Behind a pointer that is
    /// never reassigned, as ``counters``: reading it pays no exclusivity
    /// check. Freed in the deinit.
    // nonisolated(unsafe): a `let` never reassigned, read from libuv's
    // allocation and read callbacks (``readBufferSlot(of:)``) without entering
    // the main actor; the pointee is touched only on the loop's thread,
    // inside `uv_run`, which main-actor code runs (see ``LoopHandle/dispatch(_:as:counted:_:_:)``).
    private nonisolated(unsafe) let readBufferSlot: UnsafeMutablePointer<ReadBuffer> = {
        let slot = UnsafeMutablePointer<ReadBuffer>.allocate(capacity: 1)
        slot.initialize(to: ReadBuffer())
        return slot
    }()
    #if DEBUG
    /// Whether a read callback is delivering a chunk of the read buffer
    /// (debug builds: ``readBuffer(of:)`` asserts that none is, since it
    /// would hand out memory a chunk still views).
    var isDeliveringRead = false
    #endif
    /// The buffer a ``FilteredTransport`` (TLS) decodes the app's bytes
    /// into, shared by every filtered connection of the loop as the read
    /// buffer is by every stream: one delivery at a time, and a buffer a
    /// delivered chunk kept is replaced, never reused
    /// (``FilteredTransport/decodingBuffer()``). Made at the first use.
    var filterReadBuffer: ReadBuffer?
    /// The thread the loop is pinned to (see ``pinToCurrentThread()``):
    /// the only one that may run it or touch its handles. Behind a lock:
    /// the check reads it from whatever thread asks.
    private nonisolated let thread = Mutex<pthread_t?>(nil)
    /// The process groups of the children spawned on this loop that may
    /// still have members; killed when the loop is torn down and before
    /// the app's process ends (see ``ProcessGroups``).
    let processGroups = ProcessGroups()
    /// What the loop counts as it runs (events, bytes, connections,
    /// children). Behind a pointer that is never reassigned, so the hot
    /// paths' additions pay no exclusivity check; freed in the deinit,
    /// after every handle (each keeps the loop alive) is gone.
    let counters: UnsafeMutablePointer<LoopCounters> = {
        let counters = UnsafeMutablePointer<LoopCounters>.allocate(capacity: 1)
        counters.initialize(to: LoopCounters())
        return counters
    }()
    /// The loop lag sampler, once ``startHealthMonitor(interval:)`` ran.
    private(set) var health: LoopHealthMonitor?
    /// What the app was launched with (inherited sockets, worker index)
    /// and which server listens on each inherited socket (see
    /// ``AppContext/launchEnvironment``).
    let launch = LaunchState()

    init(logger: Logger = Logger(label: "compose")) throws(LoopError) {
        // Before any handle exists: a peer that goes away must never kill
        // the process through SIGPIPE (see FatalSignalDefaults).
        FatalSignalDefaults.apply()
        self.logger = logger
        uv = .allocate(capacity: 1)
        let result = uv_loop_init(uv)
        guard result == 0 else {
            uv.deallocate()
            throw LoopError("uv_loop_init", code: result)
        }
        uv.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        startTurnHandles()
    }

    isolated deinit {
        // Every handle keeps its loop alive, so none is open here; a loop
        // that was run and never torn down still needs closing.
        if !isClosed { tearDown() }
        counters.deinitialize(count: 1)
        counters.deallocate()
        turnState.deinitialize(count: 1)
        turnState.deallocate()
        readBufferSlot.deinitialize(count: 1)
        readBufferSlot.deallocate()
    }

    /// Starts sampling the loop's health (see ``LoopHealthMonitor``); the
    /// runtime does for the app's loop. Returns the running monitor when
    /// there is one already.
    @discardableResult
    func startHealthMonitor(interval: Duration = .milliseconds(100)) throws(LoopError) -> LoopHealthMonitor {
        if let health { return health }
        let monitor = LoopHealthMonitor(loop: self, interval: interval)
        try monitor.start()
        health = monitor
        return monitor
    }

    /// The read buffer of the loop `uv` (see ``ReadBuffer``), for a read
    /// made outside libuv (``StreamHandle/readAvailable(_:)``, from a timer
    /// or exit callback): no chunk holds it between deliveries, and such a
    /// read never runs during one (the slot is empty then).
    static func readBuffer(of uv: UnsafeMutablePointer<uv_loop_t>) -> ReadBuffer {
        #if DEBUG
        assert(!owner(of: uv).isDeliveringRead, "the read buffer taken while a chunk of it is delivered")
        #endif
        return readBufferSlot(of: uv).pointee
    }

    /// Where the loop `uv` keeps its read buffer, for libuv's allocation
    /// and read callbacks: read without retaining the loop (the loop
    /// outlives its handles, whose callbacks run inside its `uv_run`).
    @inline(__always)
    nonisolated static func readBufferSlot(of uv: UnsafeMutablePointer<uv_loop_t>) -> UnsafeMutablePointer<ReadBuffer> {
        unretained(uv)._withUnsafeGuaranteedRef { $0.readBufferSlot }
    }

    /// After a delivery: if an observer kept a chunk (the buffer is no
    /// longer referenced by the slot alone), the next read goes into a new
    /// buffer, and the kept chunk's bytes never change.
    @inline(__always)
    nonisolated static func renewReadBufferIfKept(_ slot: UnsafeMutablePointer<ReadBuffer>) {
        if !isKnownUniquelyReferenced(&slot.pointee) { slot.pointee = ReadBuffer() }
    }

    /// The turn state of the loop `uv` (see ``turnState``), for the turn
    /// handles' C callbacks: read without retaining the loop (the loop
    /// outlives its handles, whose callbacks run inside its `uv_run`).
    nonisolated static func turnState(of uv: UnsafeMutablePointer<uv_loop_t>) -> UnsafeMutablePointer<TurnState> {
        unretained(uv)._withUnsafeGuaranteedRef { $0.turnState }
    }

    /// The loop whose `uv_loop_t` is `uv`, as `Unmanaged`: a callback that
    /// reads one of its `nonisolated(unsafe)` pointers through
    /// `_withUnsafeGuaranteedRef` (a nonisolated closure, so no executor
    /// check) pays no retain or release.
    @inline(__always)
    nonisolated static func unretained(_ uv: UnsafeMutablePointer<uv_loop_t>) -> Unmanaged<EventLoop> {
        // Unchecked: set in init, before any handle exists, and never
        // cleared.
        Unmanaged<EventLoop>.fromOpaque(uv.pointee.data.unsafelyUnwrapped)
    }

    /// Whether the caller runs on the thread the loop is pinned to (always
    /// `true` for a loop that is not pinned).
    ///
    /// Everything of a loop happens on one thread: libuv is not
    /// thread-safe, and the callbacks rely on running
    /// where the main actor runs. Handles assert this in debug builds
    /// (``LoopHandle/assertOnLoopThread()``). The runtime pins the app's
    /// loop to the main thread that runs it; a loop driven from Swift
    /// Testing's main actor is not pinned, since on Linux the main actor's
    /// jobs run on whichever thread drains the main queue (one at a time,
    /// so still never concurrently).
    nonisolated var isOnLoopThread: Bool {
        guard let pinned = thread.withLock({ $0 }) else { return true }
        return pthread_equal(pthread_self(), pinned) != 0
    }

    /// Pins the loop to the calling thread (see ``isOnLoopThread``), or
    /// unpins it. Call before the loop runs.
    func pinToCurrentThread(_ pinned: Bool = true) {
        thread.withLock { $0 = pinned ? pthread_self() : nil }
    }

    /// The loop whose `uv_loop_t` is `uv`, unretained.
    nonisolated static func owner(of uv: UnsafeMutablePointer<uv_loop_t>) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(uv.pointee.data).takeUnretainedValue()
    }

    /// Starts draining the main dispatch queue from this loop.
    func attachMainQueue() {
        guard mainQueuePoll == nil else { return }
        let fd = compose_uv_main_queue_fd()
        do {
            let poll = try PollHandle(loop: self, fd: fd)
            try poll.startReading { compose_uv_drain_main_queue(fd) }
            poll.keepsLoopAlive = false
            mainQueuePoll = poll
        } catch {
            logger.error("Cannot drain the main dispatch queue from the loop: \(error). Tasks on the main actor will not run while the loop runs.")
        }
    }

    /// Keeps the loop running, waiting for main-actor work that no handle
    /// stands for (the app's services starting or stopping in tasks), until
    /// as many ``release()``s, or ``closeAllHandles()``.
    func hold() {
        holds += 1
        mainQueuePoll?.keepsLoopAlive = true
    }

    /// Ends one ``hold()``.
    func release() {
        holds = max(holds - 1, 0)
        if holds == 0 { mainQueuePoll?.keepsLoopAlive = false }
    }

    private var holds = 0

    /// Whether `uv_run` is running (see ``ReentryGuard``): ``run()``,
    /// ``runOnce(blocking:)`` and ``tearDown()`` stop the process when
    /// called from code the loop runs. Only they touch it.
    private var reentry = ReentryGuard()

    /// Stops the process if the loop is running: for a driver of the loop
    /// (`LoopDriver`), so that the failure names `call`.
    func preconditionNotRunning(_ call: @autoclosure () -> String) {
        if reentry.isDriving { ReentryGuard.reentered(call()) }
    }

    /// Runs the loop until no handle keeps it alive (or ``stop()``), draining
    /// the main queue one last time after each run so that work scheduled
    /// just before the loop went idle still runs.
    ///
    /// Not reentrant (`uv_run` is not): called from a loop callback or an
    /// observer, it stops the process (see ``ReentryGuard``).
    func run() {
        assert(isOnLoopThread, "EventLoop.run() on a thread other than the loop's")
        reentry.enter("EventLoop.run()")
        defer { reentry.leave() }
        repeat {
            uv_run(uv, UV_RUN_DEFAULT)
            if mainQueuePoll != nil { compose_uv_drain_main_queue(compose_uv_main_queue_fd()) }
        } while uv_loop_alive(uv) != 0 && !stopRequested
        stopRequested = false
    }

    /// Runs one iteration: waits for an event if `blocking`, else only
    /// handles what is pending. Not reentrant, as ``run()``.
    func runOnce(blocking: Bool) {
        assert(isOnLoopThread, "EventLoop.runOnce(blocking:) on a thread other than the loop's")
        reentry.enter("EventLoop.runOnce(blocking:)")
        defer { reentry.leave() }
        uv_run(uv, blocking ? UV_RUN_ONCE : UV_RUN_NOWAIT)
    }

    private var stopRequested = false

    /// Makes ``run()`` return after the current iteration.
    func stop() {
        stopRequested = true
        uv_stop(uv)
    }

    /// Monotonic time, nanoseconds since an arbitrary point.
    var nanoseconds: UInt64 { uv_hrtime() }

    /// How many handles are open and not closing, except the main-queue poll.
    var openHandleCount: Int {
        var count = 0
        withUnsafeMutablePointer(to: &count) { pointer in
            uv_walk(uv, { handle, context in
                guard let handle, uv_is_closing(handle) == 0 else { return }
                context?.assumingMemoryBound(to: Int.self).pointee += 1
            }, pointer)
        }
        return count - (mainQueuePoll == nil ? 0 : 1)
    }

    /// Closes every handle that is not closing yet (through its owner, so
    /// owners see the close), except the main-queue poll, and ends every
    /// ``hold()``.
    func closeAllHandles() {
        var handles: [UnsafeMutablePointer<uv_handle_t>] = []
        withUnsafeMutablePointer(to: &handles) { pointer in
            uv_walk(uv, { handle, context in
                guard let handle, uv_is_closing(handle) == 0 else { return }
                context?.assumingMemoryBound(to: [UnsafeMutablePointer<uv_handle_t>].self).pointee.append(handle)
            }, pointer)
        }
        holds = 0
        mainQueuePoll?.keepsLoopAlive = false
        for handle in handles where handle != mainQueuePoll?.handle {
            if let owner = LoopHandle.owner(of: handle) {
                owner.close()
            } else {
                uv_close(handle, nil)
            }
        }
    }

    /// Closes everything (killing the process groups of children, see
    /// ``processGroups``), lets the close callbacks run, closes the loop and
    /// frees it. Returns `false` (and logs) if libuv still reports open
    /// handles; the loop's memory is then left allocated. Idempotent. Not
    /// reentrant, as ``run()``.
    @discardableResult
    func tearDown() -> Bool {
        guard !isClosed else { return true }
        assert(isOnLoopThread, "EventLoop.tearDown() on a thread other than the loop's")
        // It runs the loop for the close callbacks: not from code the loop runs.
        reentry.enter("EventLoop.tearDown()")
        defer { reentry.leave() }
        closeTurnHandles()
        health?.stop()
        closeAllHandles()
        // What children left behind (a group outlives its leader) ends with
        // the loop.
        processGroups.killAll()
        mainQueuePoll?.close()
        mainQueuePoll = nil
        uv_run(uv, UV_RUN_DEFAULT)
        let result = uv_loop_close(uv)
        if result != 0 {
            logger.error("\(LoopError("uv_loop_close", code: result)): a handle was leaked.")
            return false
        }
        isClosed = true
        uv.deallocate()
        return true
    }

    // MARK: Finding the loop

    /// The loop a resource runs on: that of the context it is bound in,
    /// else that of the running app (``AppContext/current``).
    ///
    /// - Throws: ``LoopError/Code/noEventLoop`` naming `operation` when
    ///   neither has a loop (outside an app, or in a test context).
    static func resolve(_ bound: AppContext?, for operation: String) throws(LoopError) -> EventLoop {
        if let loop = bound?.eventLoop ?? AppContext.current?.eventLoop { return loop }
        throw LoopError.noEventLoop(operation)
    }
}

extension AppContext {
    /// The context's event loop, if it is a live context (a running app's).
    var eventLoop: EventLoop? { runtime as? EventLoop }
}
