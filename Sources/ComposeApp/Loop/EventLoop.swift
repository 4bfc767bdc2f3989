internal import CLibUV
import Dispatch
import Logging

/// The process's libuv loop (`uv_default_loop()`), run on the main thread.
///
/// While it runs it also drains the main dispatch queue: libdispatch signals
/// a file descriptor when the main queue has work, the loop polls it and
/// calls libdispatch's drain hook. That is what makes `Task { @MainActor in }`,
/// `await MainActor.run { }`, `DispatchQueue.main.async { }` and
/// `Task.sleep` work inside observers. The poll does not keep the loop alive
/// by itself: the loop runs while a timer, signal, socket, stream or child
/// process handle is active.
///
/// Creating the loop sets `SIGPIPE` and `SIGXFSZ` to ignored when their
/// action is the default one (``FatalSignalDefaults``).
@MainActor
final class EventLoop {
    /// The one loop of the process.
    static let main = EventLoop()

    let uv: UnsafeMutablePointer<uv_loop_t>
    private var mainQueuePoll: PollHandle?
    private let mainQueueFD: Int32
    private let logger = Logger(label: "compose")

    private init() {
        // Before any handle exists: a peer that goes away must never kill
        // the process through SIGPIPE (see FatalSignalDefaults).
        FatalSignalDefaults.apply()
        uv = uv_default_loop()
        mainQueueFD = compose_uv_main_queue_fd()
    }

    /// Starts draining the main dispatch queue from the loop.
    func attachMainQueue() {
        guard mainQueuePoll == nil else { return }
        do {
            let poll = try PollHandle(loop: self, fd: mainQueueFD)
            let fd = mainQueueFD
            try poll.startReading { compose_uv_drain_main_queue(fd) }
            poll.keepsLoopAlive = false
            mainQueuePoll = poll
        } catch {
            logger.error("Cannot drain the main dispatch queue from the loop: \(error). Tasks on the main actor will not run while the loop runs.")
        }
    }

    /// Runs the loop until no handle keeps it alive (or ``stop()``), draining
    /// the main queue one last time after each run so that work scheduled
    /// just before the loop went idle still runs.
    func run() {
        repeat {
            uv_run(uv, UV_RUN_DEFAULT)
            compose_uv_drain_main_queue(mainQueueFD)
        } while uv_loop_alive(uv) != 0 && !stopRequested
        stopRequested = false
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
    /// owners see the close), except the main-queue poll.
    func closeAllHandles() {
        var handles: [UnsafeMutablePointer<uv_handle_t>] = []
        withUnsafeMutablePointer(to: &handles) { pointer in
            uv_walk(uv, { handle, context in
                guard let handle, uv_is_closing(handle) == 0 else { return }
                context?.assumingMemoryBound(to: [UnsafeMutablePointer<uv_handle_t>].self).pointee.append(handle)
            }, pointer)
        }
        for handle in handles where handle != mainQueuePoll?.handle {
            if let owner = LoopHandle.owner(of: handle) {
                owner.close()
            } else {
                uv_close(handle, nil)
            }
        }
    }

    /// Closes everything, lets the close callbacks run, and closes the loop.
    /// Returns `false` (and logs) if libuv still reports open handles.
    @discardableResult
    func tearDown() -> Bool {
        closeAllHandles()
        mainQueuePoll?.close()
        mainQueuePoll = nil
        uv_run(uv, UV_RUN_DEFAULT)
        let result = uv_loop_close(uv)
        if result != 0 {
            logger.error("\(LoopError("uv_loop_close", code: result)): a handle was leaked.")
            return false
        }
        return true
    }
}
