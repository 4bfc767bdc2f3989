import Compose

/// A connection's judgement of its peer while its send queue is above the
/// soft limit (see ``SendQueueLimits``): when the queue passed the limit,
/// the grace period under way, and what the peer had read (the bytes that
/// left the queue, counted from the connection's opening) at each start.
@MainActor
struct SendQueueJudgement {
    /// When the queue passed the soft limit, and what the peer had read by
    /// then.
    let since: Duration
    let readAtSince: Int
    /// The grace period under way: when it began, and what the peer had
    /// read by then.
    var periodStart: Duration
    var readAtPeriodStart: Int
    /// The check at the end of the grace period.
    var check: ScheduledAction
    let scheduler: any Scheduler

    /// Cancels the check.
    func end() {
        scheduler.cancel(check)
    }

    /// Why the peer was cut off at the end of a grace period, at `now`:
    /// the queue stayed above the soft limit and it read `read` bytes in
    /// all (less than the minimum progress in the period).
    func softLimitReason(limits: SendQueueLimits, queued: Int, read: Int, now: Duration) -> String {
        let soft = SendQueueLimits.bytes(limits.soft)
        let readInPeriod = SendQueueLimits.bytes(read - readAtPeriodStart)
        let required = "less than the \(SendQueueLimits.bytes(limits.minimumProgress)) it must read per grace period (sendQueueLimits.minimumProgress)"
        var why = "the send queue stayed above \(soft) (soft limit, sendQueueLimits.soft) for \(SendQueueLimits.seconds(now - since))"
        if periodStart == since {
            why += "; the peer read \(readInPeriod) meanwhile, \(required)"
        } else {
            why += "; the peer read \(readInPeriod) in the last \(SendQueueLimits.seconds(now - periodStart)) (sendQueueLimits.gracePeriod), \(required)"
        }
        return why + "; \(queued) bytes queued"
    }

    /// Why the peer was cut off by a write of `count` bytes onto `queued`
    /// (past the hard limit): with the judgement under way (`judgement`),
    /// how long the queue was above the soft limit and what the peer read
    /// meanwhile.
    static func hardLimitReason(
        _ judgement: SendQueueJudgement?,
        limits: SendQueueLimits,
        queued: Int,
        adding count: Int,
        read: Int
    ) -> String {
        let total = queued + count
        var why = "a write of \(SendQueueLimits.bytes(count)) would take the send queue from \(SendQueueLimits.bytes(queued)) to \(SendQueueLimits.bytes(total)) (\(total) bytes), past \(SendQueueLimits.bytes(limits.hard)) (hard limit, sendQueueLimits.hard)"
        if let judgement {
            let above = SendQueueLimits.seconds(judgement.scheduler.now - judgement.since)
            why += "; the peer read \(SendQueueLimits.bytes(read - judgement.readAtSince)) in the \(above) since the queue passed \(SendQueueLimits.bytes(limits.soft)) (soft limit)"
        }
        return why
    }

    /// Why a closing connection was cut off: `queued` bytes unread
    /// `timeout` after ``TCPConnection/close()``, of which the peer read
    /// `read` meanwhile.
    static func closeFlushReason(queued: Int, timeout: Duration, read: Int) -> String {
        "\(SendQueueLimits.bytes(queued)) (\(queued) bytes) still unread \(SendQueueLimits.seconds(timeout)) after close() (closeFlushTimeout); the peer read \(SendQueueLimits.bytes(read)) meanwhile"
    }
}
