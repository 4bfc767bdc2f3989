internal import CLibUV

extension EventLoop {
    /// How long the loop keeps polling for I/O without waiting after its
    /// last input, bytes read or a connection accepted (see ``BusyPoll``);
    /// `.zero`, the default, waits at once.
    /// Set from ``StartupConfiguration/busyPolling`` or the setting
    /// `busyPollMicroseconds`; a negative window is taken as zero, and a
    /// loop torn down keeps its zero.
    var busyPolling: Duration {
        get { .nanoseconds(Int64(clamping: turnState.pointee.busyPoll.window)) }
        set {
            guard !isClosed else { return }
            let (seconds, attoseconds) = max(.zero, newValue).components
            // Saturating: a window of centuries is a window that never ends.
            let (whole, overflows) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
            let (sum, carries) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
            let window = overflows || carries ? UInt64.max : sum
            if window != 0, busyPollTurn == nil {
                do {
                    busyPollTurn = try TurnHandle(loop: self, phase: .idle)
                } catch {
                    logger.error("Cannot busy-poll: \(error). The loop waits for I/O at once.")
                    return
                }
            }
            if window == 0 {
                busyPollTurn?.stop()
                turnState.pointee.busyPoll = BusyPoll()
            } else {
                turnState.pointee.busyPoll.window = window
            }
        }
    }

    /// Whether the loop polls without waiting this turn (its idle handle
    /// is started), as ``BusyPoll`` last decided.
    var isBusyPolling: Bool { turnState.pointee.busyPoll.isPolling }

    /// The loop is about to wait, with busy polling on: starts or stops
    /// the idle handle that keeps this turn from waiting, as ``BusyPoll``
    /// decides from the loop's input (bytes read and connections
    /// accepted, counted on every read and accept anyway) and the time
    /// (`uv_hrtime`, a vDSO clock read).
    func decideBusyPolling() {
        let wasPolling = turnState.pointee.busyPoll.isPolling
        let input = counters.pointee.bytesRead &+ counters.pointee.connectionsAccepted
        let polls = turnState.pointee.busyPoll.shouldPoll(input: input, now: uv_hrtime())
        guard polls != wasPolling else { return }
        if polls { busyPollTurn?.start() } else { busyPollTurn?.stop() }
    }
}
