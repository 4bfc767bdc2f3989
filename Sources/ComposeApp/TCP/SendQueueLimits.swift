/// How much may wait for a peer, and for how long, before the peer is
/// judged not to read and is cut off: a connection's
/// ``TCPConnection/sendQueueLimits``.
///
/// A send queue judges the peer, not the reply. A reply larger than any
/// limit here goes out to a peer that reads it; the limits catch a peer
/// that does not:
///
/// - **Soft limit** (``soft``, 4 MiB): while more than this waits, the
///   peer is judged once per ``gracePeriod`` (30 s). If it read less than
///   ``minimumProgress`` (64 KiB) in that period, it is cut off; if it
///   read at least that much, it is reading, and the next period starts.
///   Once the queue is back at the soft limit the judgement ends.
/// - **Hard limit** (``hard``, 64 MiB): a write that would take the queue
///   past it cuts the peer off at once, and is not queued. It bounds what
///   any one peer can make the process hold, however it reads.
///
/// These are the two limits of Redis's `client-output-buffer-limit
/// <hard> <soft> <soft-seconds>`, with the soft one judged on the peer's
/// progress as nginx's `send_timeout` is. Why both: judged on time above
/// the soft limit alone (Redis), a reading peer on a slow link is cut off
/// because its reply takes longer than the grace period to go out (the
/// reply judged again, in time rather than size); judged on any progress
/// at all (nginx), a peer that reads a byte now and then, a slow-read
/// attack, holds its queue as long as it likes. With a minimum progress
/// per grace period, a peer that reads at all (64 KiB per 30 s is about
/// 2 KiB/s) is served, whatever the size of its replies below the hard
/// limit; one that stopped reading, or trickles, is cut off within one or
/// two grace periods (the first may still see the kernel's buffers fill).
///
/// A peer cut off is reset, not closed (TCP: `SO_LINGER` 0, as
/// `uv_tcp_close_reset`), so the kernel drops what it still held for it
/// and no FIN waits behind megabytes it will never read; a Unix domain
/// socket has no reset and is closed. The connection sends a
/// ``LoopError/Code/sendQueueExceeded`` error on ``TCPConnection/errors``
/// saying which limit, and how much the peer read meanwhile:
///
/// ```text
/// write failed: ENOBUFS (send queue exceeded: the send queue stayed above 4 MiB
/// (soft limit, sendQueueLimits.soft) for 30 s; the peer read 12 KiB meanwhile, ...)
/// ```
///
/// What a peer "read" is what left the queue for the socket: the kernel's
/// buffers (some MiB on a fast link) count as read.
///
/// ```swift
/// // A chat: a member who stops reading is cut off after 30 s; one who
/// // falls 256 KiB behind, at once.
/// connection.sendQueueLimits = SendQueueLimits(soft: 64 << 10, hard: 256 << 10)
/// ```
///
/// An app that respects back-pressure (waits for
/// ``TCPConnection/didBecomeWritable`` after ``WriteResult/full``, or
/// relays) keeps each queue near ``TCPConnection/highWaterMark`` plus one
/// reply; the limits are for the peer that makes it wait for ever.
public struct SendQueueLimits: Sendable, Equatable, CustomStringConvertible {
    /// The queue size above which the peer must keep reading (see the
    /// type's documentation). 4 MiB by default.
    public var soft: Int
    /// The most bytes that may wait: a write that would take the queue
    /// past it cuts the peer off at once. 64 MiB by default; at or below
    /// ``soft``, the soft limit has no effect.
    public var hard: Int
    /// How long the queue may stay above ``soft`` without the peer reading
    /// ``minimumProgress``, on the app's clock. 30 s by default.
    public var gracePeriod: Duration
    /// What the peer must read in each ``gracePeriod`` while the queue is
    /// above ``soft`` to count as reading. 64 KiB by default; 1 to forgive
    /// any progress at all (as nginx's `send_timeout`).
    public var minimumProgress: Int

    /// Limits as given; each one left out is the default's.
    ///
    /// ```swift
    /// connection.sendQueueLimits = SendQueueLimits(soft: 1 << 20, gracePeriod: .seconds(10))
    /// ```
    public init(
        soft: Int = 4 << 20,
        hard: Int = 64 << 20,
        gracePeriod: Duration = .seconds(30),
        minimumProgress: Int = 64 << 10
    ) {
        self.soft = soft
        self.hard = hard
        self.gracePeriod = gracePeriod
        self.minimumProgress = minimumProgress
    }

    /// Soft 4 MiB judged every 30 s (at least 64 KiB read), hard 64 MiB.
    public static let `default` = SendQueueLimits()

    /// No limit: the queue grows as long as the app writes (for a peer the
    /// app trusts, such as its own child or a test).
    public static let unlimited = SendQueueLimits(soft: .max, hard: .max)

    /// `soft 4 MiB for 30 s (at least 64 KiB read), hard 64 MiB`.
    public var description: String {
        let hardText = hard == .max ? "no hard limit" : "hard \(Self.bytes(hard))"
        guard soft < hard else { return hardText }
        return "soft \(Self.bytes(soft)) for \(Self.seconds(gracePeriod)) (at least \(Self.bytes(minimumProgress)) read), \(hardText)"
    }

    /// The queue size above which a write takes the slow path (the hard
    /// limit, or the judgement): the lower of the two.
    var threshold: Int { Swift.min(soft, hard) }

    /// `512 B`, `12 KiB`, `4 MiB`, `15.2 MiB`: exact multiples without a
    /// fraction.
    static func bytes(_ count: Int) -> String {
        func scaled(_ unit: Int, _ name: String) -> String {
            if count % unit == 0 { return "\(count / unit) \(name)" }
            return "\((Double(count) / Double(unit) * 10).rounded() / 10) \(name)"
        }
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return scaled(1 << 10, "KiB") }
        if count < 1 << 30 { return scaled(1 << 20, "MiB") }
        return scaled(1 << 30, "GiB")
    }

    /// `30 s`, `1.5 s`, `250 ms`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        if seconds == 0 { return "\(milliseconds) ms" }
        if milliseconds == 0 { return "\(seconds) s" }
        var fraction = String(1000 + milliseconds).dropFirst()
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction) s"
    }
}
