/// Whether the loop, about to wait for I/O, should poll without waiting
/// instead (``EventLoop/busyPolling``): while its last event is less than
/// the window old.
///
/// A sleeping loop is woken by the peer that writes to it, and on a
/// virtual machine that wake-up (an interrupt to a halted virtual CPU) is
/// paid by the peer's CPU: a few microseconds for every request of a
/// request-and-reply client that finds the server asleep. Polling a short
/// window after each event spends the server's idle CPU so that a busy
/// server is seldom asleep when the next request comes; an idle one waits
/// as before, one window after its last event.
///
/// A value type fed the loop's event count and the time, so that the
/// decision is tested on a virtual clock (`BusyPollTests`).
struct BusyPoll {
    /// The window in nanoseconds; 0 turns it off.
    var window: UInt64 = 0
    /// The loop's event count when this last looked
    /// (``LoopCounters/events``).
    private var events: UInt64 = 0
    /// When the count last changed: the last event seen (none yet: `nil`).
    private var lastActivity: UInt64?
    /// Whether it decided to poll, on its last look.
    private(set) var isPolling = false

    /// Looks at the loop about to wait: `events` is its event count now,
    /// `now` the monotonic time in nanoseconds. Returns whether the loop
    /// should poll without waiting this turn.
    mutating func shouldPoll(events: UInt64, now: UInt64) -> Bool {
        if events != self.events {
            self.events = events
            lastActivity = now
        }
        if let lastActivity, window != 0 {
            isPolling = now &- lastActivity < window
        } else {
            isPolling = false
        }
        return isPolling
    }
}
