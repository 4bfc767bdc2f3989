/// Whether the loop, about to wait for I/O, should poll without waiting
/// instead (``EventLoop/busyPolling``): while its last input (bytes read,
/// a connection accepted) is less than the window old.
///
/// A sleeping loop is woken by the peer that writes to it, and on a
/// virtual machine that wake-up (an interrupt to a halted virtual CPU) is
/// paid by the peer's CPU: a few microseconds for every request of a
/// request-and-reply client that finds the server asleep. Polling a short
/// window after each input spends the server's idle CPU so that a busy
/// server is seldom asleep when the next request comes; an idle one waits
/// as before, one window after its last input. Only input counts: a
/// timer's tick (the app's, or the health monitor's every 100 ms) says
/// nothing of a peer about to write, and counted, it would keep an idle
/// loop polling a window after every tick.
///
/// A value type fed a count of the loop's input and the time, so that
/// the decision is tested on a virtual clock (`BusyPollTests`).
struct BusyPoll {
    /// The window in nanoseconds; 0 turns it off.
    var window: UInt64 = 0
    /// The input count when this last looked.
    private var input: UInt64 = 0
    /// When the count last changed: the last input seen (none yet: `nil`).
    private var lastInput: UInt64?
    /// Whether it decided to poll, on its last look.
    private(set) var isPolling = false

    /// Looks at the loop about to wait: `input` is a count that moves with
    /// each input (the loop's bytes read plus connections accepted), `now`
    /// the monotonic time in nanoseconds. Returns whether the loop should
    /// poll without waiting this turn.
    mutating func shouldPoll(input: UInt64, now: UInt64) -> Bool {
        if input != self.input {
            self.input = input
            lastInput = now
        }
        if let lastInput, window != 0 {
            isPolling = now &- lastInput < window
        } else {
            isPolling = false
        }
        return isPolling
    }
}
