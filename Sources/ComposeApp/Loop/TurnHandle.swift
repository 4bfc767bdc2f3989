internal import CLibUV

/// A `uv_prepare_t` (runs just before the loop waits for I/O) or a
/// `uv_check_t` (runs just after): the two ends of a loop turn where work
/// batched during the turn is finished (see ``EventLoop/atEndOfTurn(_:)``).
/// Or a `uv_idle_t`, which, while started, keeps the loop from waiting for
/// I/O (a reader holds lines to deliver next turn, see ``LineDelivery``).
/// It never keeps the loop alive.
///
/// They run on most turns, so their callbacks call the loop directly
/// (``EventLoop/turnWillWait()``, ``EventLoop/finishTurn()``) rather than
/// through a closure and the owner lookup of ``LoopHandle/dispatch(_:as:counted:_:_:)``.
/// That is safe without the closing check: `uv_close` stops a prepare,
/// check or idle handle at once, so none calls back once it is closing.
@MainActor
final class TurnHandle: LoopHandle {
    enum Phase {
        /// Before the loop polls: after timers and idle work.
        case beforePoll
        /// After the loop polled: after the I/O callbacks.
        case afterPoll
        /// At the start of each turn, before ``beforePoll``; while started,
        /// the loop polls without waiting.
        case idle
    }

    private let phase: Phase

    init(loop: EventLoop, phase: Phase) throws(LoopError) {
        self.phase = phase
        switch phase {
        case .beforePoll:
            try super.init(loop: loop, size: MemoryLayout<uv_prepare_t>.size, operation: "uv_prepare_init") { raw in
                uv_prepare_init(loop.uv, raw.assumingMemoryBound(to: uv_prepare_t.self))
            }
        case .afterPoll:
            try super.init(loop: loop, size: MemoryLayout<uv_check_t>.size, operation: "uv_check_init") { raw in
                uv_check_init(loop.uv, raw.assumingMemoryBound(to: uv_check_t.self))
            }
        case .idle:
            try super.init(loop: loop, size: MemoryLayout<uv_idle_t>.size, operation: "uv_idle_init") { raw in
                uv_idle_init(loop.uv, raw.assumingMemoryBound(to: uv_idle_t.self))
            }
        }
    }

    /// Calls the loop at this end of every turn (the idle handle: keeps
    /// the loop from waiting) until ``stop()`` or the handle closes.
    func start() {
        assertOnLoopThread()
        guard !isClosing else { return }
        switch phase {
        case .beforePoll: uv_prepare_start(raw.assumingMemoryBound(to: uv_prepare_t.self), turnHandlePreparedCallback)
        case .afterPoll: uv_check_start(raw.assumingMemoryBound(to: uv_check_t.self), turnHandleCheckedCallback)
        case .idle: uv_idle_start(raw.assumingMemoryBound(to: uv_idle_t.self), turnHandleIdled)
        }
        keepsLoopAlive = false
    }

    /// Stops calling back until the next ``start()``.
    func stop() {
        assertOnLoopThread()
        guard !isClosing else { return }
        switch phase {
        case .beforePoll: uv_prepare_stop(raw.assumingMemoryBound(to: uv_prepare_t.self))
        case .afterPoll: uv_check_stop(raw.assumingMemoryBound(to: uv_check_t.self))
        case .idle: uv_idle_stop(raw.assumingMemoryBound(to: uv_idle_t.self))
        }
    }
}

/// ``turnHandlePrepared`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var turnHandlePreparedCallback: uv_prepare_cb { { turnHandlePrepared($0) } }

/// Most turns have nothing batched, nobody paused and no busy polling: the callback then
/// only counts the turn, through the loop's ``TurnState`` pointer, without
/// entering the loop object (no retain, no closure); otherwise it calls
/// ``EventLoop/turnWillWait()``, which does the same and the rest.
@MainActor private func turnHandlePrepared(_ handle: UnsafeMutablePointer<uv_prepare_t>?) {
    guard let uv = handle?.pointee.loop else { return }
    let state = EventLoop.turnState(of: uv)
    if state.pointee.endOfTurnWork.isEmpty, state.pointee.pausedByBudget.isEmpty, !state.pointee.hasTurnObservers,
       state.pointee.busyPoll.window == 0 {
        state.pointee.turn &+= 1
        return
    }
    EventLoop.owner(of: uv).turnWillWait()
}

/// ``turnHandleChecked`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var turnHandleCheckedCallback: uv_check_cb { { turnHandleChecked($0) } }

/// Enters the loop only when the turn batched work (see
/// ``turnHandlePrepared(_:)``); the handle runs only while some is
/// registered (``EventLoop/atEndOfTurn(_:)`` starts it, ``EventLoop/finishTurn()``
/// stops it), so the check is a safeguard.
@MainActor private func turnHandleChecked(_ handle: UnsafeMutablePointer<uv_check_t>?) {
    guard let uv = handle?.pointee.loop, !EventLoop.turnState(of: uv).pointee.endOfTurnWork.isEmpty else { return }
    EventLoop.owner(of: uv).finishTurn()
}

/// Nothing to do: a started idle handle only keeps the loop from waiting.
private func turnHandleIdled(_ handle: UnsafeMutablePointer<uv_idle_t>?) {}
