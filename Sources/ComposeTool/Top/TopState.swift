/// Everything `compose top` shows, as a value: the last replies, the
/// history the sparkline draws, the selection and what is followed.
/// Changed only by its own mutating functions, which the tests call
/// directly.
struct TopState: Equatable {
    /// How many lag samples the sparkline keeps (the widest it draws).
    static let historyLimit = 240
    /// How many followed events are kept.
    static let followLimit = 500

    /// Which pane the arrows move in.
    enum Pane: String, Equatable, CaseIterable {
        case tree, connections
    }

    var info: TopInfo?
    var tree: TopTree?
    var loop: TopLoop?
    /// The loop's lag (its p99 over the last minute, in seconds) at each
    /// refresh, oldest first.
    var lagHistory: [Double] = []
    /// Sends per second between the last two trees (`nil` before two).
    var sendsPerSecond: Double?
    /// The selected row of each pane.
    var selectedComponent = 0
    var selectedConnection = 0
    /// The path followed, and its events, oldest first.
    var followedPath: String?
    var followed: [String] = []
    /// Events the app dropped for the follower.
    var dropped = 0
    /// What went wrong last (the app closed, a refused request); `nil`
    /// while all is well.
    var problem: String?

    /// A new tree: sends per second since the previous one, the
    /// selection kept on the same path when it still exists.
    mutating func receive(tree new: TopTree) {
        let selectedPath = selectedComponentPath
        if let old = tree, new.time > old.time {
            sendsPerSecond = Double(max(0, new.sends - old.sends)) / (new.time - old.time)
        }
        tree = new
        if let selectedPath, let index = new.components.firstIndex(where: { $0.path == selectedPath }) {
            selectedComponent = index
        } else {
            selectedComponent = min(selectedComponent, max(0, new.components.count - 1))
        }
    }

    /// A new loop report: its lag appended to the history.
    mutating func receive(loop new: TopLoop) {
        loop = new
        if let health = new.health {
            lagHistory.append(health.lagP99)
            if lagHistory.count > Self.historyLimit { lagHistory.removeFirst(lagHistory.count - Self.historyLimit) }
        }
        selectedConnection = min(selectedConnection, max(0, (new.connections?.count ?? 0) - 1))
    }

    /// A line of the follow stream.
    mutating func receive(follow line: TopFollowLine) {
        if let dropped = line.dropped { self.dropped += dropped }
        guard let event = line.event else { return }
        followed.append(Self.describe(event))
        if followed.count > Self.followLimit { followed.removeFirst(followed.count - Self.followLimit) }
    }

    /// Starts showing the events of `path` (the old ones go).
    mutating func follow(_ path: String) {
        followedPath = path
        followed = []
        dropped = 0
    }

    /// Moves the selection of `pane` by `step` rows, within its rows.
    mutating func move(_ pane: Pane, by step: Int) {
        switch pane {
        case .tree:
            let count = tree?.components.count ?? 0
            selectedComponent = max(0, min(count - 1, selectedComponent + step))
        case .connections:
            let count = loop?.connections?.count ?? 0
            selectedConnection = max(0, min(count - 1, selectedConnection + step))
        }
    }

    /// The path of the selected row of `pane`, if it has one.
    func selectedPath(in pane: Pane) -> String? {
        switch pane {
        case .tree: selectedComponentPath
        case .connections: loop?.connections.flatMap { $0.indices.contains(selectedConnection) ? $0[selectedConnection].path : nil }
        }
    }

    var selectedComponentPath: String? {
        guard let components = tree?.components, components.indices.contains(selectedComponent) else { return nil }
        return components[selectedComponent].path
    }

    /// The components that are instances of a container (chat sessions):
    /// what top counts as "instances".
    var instanceCount: Int {
        tree?.components.reduce(0) { $0 + ($1.container?.instances ?? 0) } ?? 0
    }

    /// `74.010s chatApp.server.sessions.1.room.say sent hello`.
    static func describe(_ event: TopFollowLine.Event) -> String {
        var line = TopFormat.seconds(event.time) + " " + (event.path ?? "") + " " + event.kind
        if let value = event.value { line += " " + value }
        if let code = event.code { line += " " + code }
        if let message = event.message { line += ": " + message }
        return line
    }
}
