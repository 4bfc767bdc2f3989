import Compose

/// Where a session's reply lines go: a socket client's connection, or a
/// test's list of lines.
@MainActor
protocol InspectionOutput: AnyObject {
    /// Writes `reply` as one line; never blocks.
    func write(_ reply: InspectionJSON)
    /// Bytes written and not yet taken by the client.
    var queuedBytes: Int { get }
}

/// One inspection client: reads its request lines and writes its replies,
/// and, while it follows, the app's events that match its path prefix.
///
/// **A follower never slows the app.** Events are written only while
/// fewer than ``followQueueLimit`` bytes wait for the client, and at most
/// ``eventsPerTurn`` of them in one loop turn; past either they are dropped
/// and counted, and the client gets `{"v":1,"dropped":N,...}` once it has
/// caught up (at its next event, or when its queue drains). While a client
/// is behind, the app makes no events for it at all: the session lets go
/// of its hold on tracing and counts the sends it misses instead (see
/// ``isBehind``). So under a flood a follower costs the app at most
/// ``eventsPerTurn`` events' work per turn, whatever the flood's rate and
/// however fast the client reads: the fairness bounds of the read and line
/// budgets hold with a follower attached.
@MainActor
final class InspectionSession: TurnResumable {
    /// The most bytes waiting for a follower before its events are dropped.
    static let followQueueLimit = 256 << 10
    /// The most events written to a follower in one loop turn (an app
    /// without a loop, on virtual time, has no such limit). A flooding
    /// stream delivers up to ``EventLoop/lineBudgetPerTurn`` lines a turn,
    /// each a send or more: describing and encoding them all would make
    /// every turn several times longer.
    static let eventsPerTurn = 256

    private let inspection: Inspection
    private let output: any InspectionOutput
    private var following: Following?
    /// Events dropped since the client was last told.
    private(set) var dropped = 0
    /// Events dropped since it began to follow.
    private(set) var totalDropped = 0
    /// Set while writing, so that a diagnostic the write itself reports is
    /// not written into the same output.
    private var isWriting = false
    /// Whether the client is ``followQueueLimit`` behind: its hold on
    /// tracing is let go until its queue drains, so the app does not make
    /// events (describe values, build paths) only for this session to drop
    /// them; it still counts its sends (`AppContext.countedSends`), and
    /// those it missed are reported as dropped when the client catches up.
    private var isBehind = false
    /// `countedSends` when the client fell behind.
    private var sendsWhenBehind = 0
    /// The loop turn ``eventsThisTurn`` counts in.
    private var turn = -1
    /// Events written in ``turn``.
    private var eventsThisTurn = 0
    /// Whether the loop resumes this session at the next turn.
    private var resumesNextTurn = false

    private struct Following {
        var prefix: String
        var rootPrefix: String
        var wantsText: Bool
        /// The columns text lines are cut at (0: never).
        var width: Int
        /// How text lines show times.
        var clock: InspectionText.Clock
        var subscriptions: [Subscription]
    }

    init(inspection: Inspection, output: any InspectionOutput) {
        self.inspection = inspection
        self.output = output
    }

    /// Whether the session follows events.
    var isFollowing: Bool { following != nil }

    /// Answers one request line.
    func receive(_ line: String) {
        do {
            let request = try InspectionRequest.parse(line)
            if request.command == .follow {
                follow(request)
            } else {
                write(try inspection.answer(request))
            }
        } catch {
            write(error.reply)
        }
    }

    /// Ends the session (the client left): stops following.
    func end() {
        stopFollowing()
    }

    /// The client's queue drained: tells it about events it missed.
    func outputDrained() {
        catchUp()
        reportDrops()
    }

    // MARK: Following

    private func follow(_ request: InspectionRequest) {
        guard let context = inspection.context else { return }
        stopFollowing()
        let root = context.tree?.root.label ?? ""
        let prefix = request.path.hasSuffix(".") ? String(request.path.dropLast()) : request.path
        var subscriptions: [Subscription] = []
        inspection.beginFollowing()
        subscriptions.append(context.events.observe { [weak self] event in
            self?.deliver(event)
        })
        subscriptions.append(context.diagnostics.observe { [weak self, weak context] diagnostic in
            self?.deliver(diagnostic, time: context?.scheduler?.now ?? .zero)
        })
        let clock = InspectionText.Clock(start: context.scheduler?.now ?? .zero, wallStart: Inspection.wallClock(), format: request.time)
        following = Following(
            prefix: prefix,
            rootPrefix: root.isEmpty || prefix.isEmpty ? prefix : root + "." + prefix,
            wantsText: request.wantsText,
            width: request.width,
            clock: clock,
            subscriptions: subscriptions
        )
        var payload: [InspectionJSON.Member] = [.init(key: "path", value: .string(prefix))]
        if request.wantsText {
            payload.append(.init(key: "text", value: .string("following \(prefix.isEmpty ? "everything" : prefix) (Ctrl-C to stop)")))
        }
        write(Inspection.reply(.follow, payload))
    }

    private func stopFollowing() {
        guard let current = following else { return }
        catchUp()
        following = nil
        for subscription in current.subscriptions { subscription.cancel() }
        inspection.endFollowing()
    }

    /// Whether `path` is under the followed prefix: equal to it or below
    /// it (segment by segment), with or without the root's label.
    private func matches(_ path: String?, _ following: Following) -> Bool {
        guard !following.prefix.isEmpty else { return true }
        guard let path else { return false }
        for prefix in [following.prefix, following.rootPrefix] where path.hasPrefix(prefix) {
            if path.count == prefix.count || path.dropFirst(prefix.count).first == "." { return true }
        }
        return false
    }

    private func deliver(_ event: AppEvent) {
        // Behind, the counted sends stand for what is missed (events made
        // for another holder of tracing are not counted twice).
        guard !isBehind, let following, matches(event.path, following) else { return }
        guard admitsEvent() else { return }
        var members: [InspectionJSON.Member] = [
            .init(key: "v", value: .int(InspectionRequest.version)),
            .init(key: "event", value: event.inspectionJSON),
        ]
        if following.wantsText {
            members.append(.init(key: "text", value: .string(InspectionText.event(event, clock: following.clock, width: following.width))))
        }
        write(.object(members))
    }

    private func deliver(_ diagnostic: Diagnostic, time: Duration) {
        guard !isWriting, let following, matches(diagnostic.path, following) else { return }
        guard admitsEvent() else { return }
        var members: [InspectionJSON.Member] = [
            .init(key: "v", value: .int(InspectionRequest.version)),
            .init(key: "event", value: diagnostic.json(time: time)),
        ]
        if following.wantsText {
            members.append(.init(key: "text", value: .string(InspectionText.diagnostic(diagnostic, time: time, clock: following.clock, width: following.width))))
        }
        write(.object(members))
    }

    /// Whether an event may be written now: `false` (and counted) while
    /// the client is ``followQueueLimit`` behind, or once ``eventsPerTurn``
    /// were written this loop turn. Reports earlier drops first.
    private func admitsEvent() -> Bool {
        let loop = inspection.context?.eventLoop
        if let loop, loop.turn != turn {
            turn = loop.turn
            eventsThisTurn = 0
        }
        guard output.queuedBytes < Self.followQueueLimit, eventsThisTurn < Self.eventsPerTurn else {
            dropped += 1
            totalDropped += 1
            fallBehind()
            // Over this turn's events, not behind in bytes: caught up next turn.
            if let loop, output.queuedBytes < Self.followQueueLimit, !resumesNextTurn {
                resumesNextTurn = true
                loop.resumeNextTurn(self)
            }
            return false
        }
        if loop != nil { eventsThisTurn += 1 }
        reportDrops()
        return true
    }

    /// The loop turn after one whose ``eventsPerTurn`` were used began:
    /// follows again, unless the client is behind in bytes meanwhile (then
    /// its queue draining catches up).
    func resumeAfterBudget() {
        resumesNextTurn = false
        guard output.queuedBytes < Self.followQueueLimit else { return }
        catchUp()
        reportDrops()
    }

    /// The client fell ``followQueueLimit`` behind: lets go of its hold on
    /// tracing until its queue drains (see ``isBehind``).
    private func fallBehind() {
        guard !isBehind, following != nil, let context = inspection.context else { return }
        isBehind = true
        sendsWhenBehind = context.countedSends
        context.releaseTracing()
    }

    /// The client's queue drained (or it stops following): holds tracing
    /// again and counts the sends it missed meanwhile as dropped.
    private func catchUp() {
        guard isBehind, let context = inspection.context else { return }
        isBehind = false
        let missed = max(0, context.countedSends &- sendsWhenBehind)
        dropped += missed
        totalDropped += missed
        context.holdTracing()
    }

    private func reportDrops() {
        guard dropped > 0, let following, output.queuedBytes < Self.followQueueLimit else { return }
        var members: [InspectionJSON.Member] = [
            .init(key: "v", value: .int(InspectionRequest.version)),
            .init(key: "dropped", value: .int(dropped)),
            .init(key: "totalDropped", value: .int(totalDropped)),
        ]
        if following.wantsText { members.append(.init(key: "text", value: .string(InspectionText.dropped(dropped)))) }
        dropped = 0
        write(.object(members))
    }

    private func write(_ json: InspectionJSON) {
        isWriting = true
        output.write(json)
        isWriting = false
    }
}
