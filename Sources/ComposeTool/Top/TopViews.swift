import ComposeTerminal

/// The first line: the app, its pid and uptime, and the rates.
struct TopHeaderView: View {
    let state: TopState

    var body: some View {
        VStack {
            Text(Self.summary(state)).bold()
            if let problem = state.problem {
                Text(problem).foreground(.red)
            }
        }
    }

    /// `ComposeChat  pid 4242  up 3m 07s  events/s 12  sends/s 4.5  instances 2  connections 2`,
    /// its parts apart by `separator`.
    static func summary(_ state: TopState, separator: String = "  ") -> String {
        guard let loop = state.loop else {
            return state.info.map { "\($0.app)  pid \($0.pid)  connecting…" } ?? "connecting…"
        }
        var parts = [state.info?.app ?? loop.app, "pid \(loop.pid)", "up \(TopFormat.uptime(loop.time))"]
        if let health = loop.health { parts.append("events/s \(TopFormat.rate(health.eventsPerSecond))") }
        if let sends = state.sendsPerSecond { parts.append("sends/s \(TopFormat.rate(sends))") }
        parts.append("instances \(state.instanceCount)")
        parts.append("connections \(loop.connections?.count ?? 0)")
        return parts.joined(separator: separator)
    }
}

/// The component tree, one row per component, indented by depth: its
/// label and type, a router's stack, a container's instances, the sends
/// counted. The selected row is highlighted.
struct TreePaneView: View {
    let state: TopState

    var body: some View {
        List(state.tree?.components ?? [], selection: state.tree == nil ? nil : state.selectedComponent) { component in
            Text(Self.row(component))
        }
        .focusName(TopState.Pane.tree.rawValue)
    }

    /// `  sessions  InstanceComponent<SessionComponent>  2 instances`.
    static func row(_ component: TopTree.Component) -> String {
        var row = String(repeating: "  ", count: max(0, component.depth)) + component.label + "  " + component.type
        if let routes = component.routes, !routes.isEmpty { row += "  " + routes.joined(separator: " › ") }
        if let container = component.container {
            row += "  \(container.instances) instance" + (container.instances == 1 ? "" : "s")
        }
        if component.sends > 0 { row += "  \(component.sends) sent" }
        return row
    }
}

/// The connections the app holds: peer, queued bytes, the component
/// holding each.
struct ConnectionsPaneView: View {
    let state: TopState

    var body: some View {
        let connections = state.loop?.connections ?? []
        if connections.isEmpty {
            Text("no connections").dim()
        } else {
            Table(
                columns: [.init("PEER"), .init("QUEUED", alignment: .trailing), .init("PATH")],
                rows: connections.map { connection in
                    [connection.peer + (connection.closing == true ? " (closing)" : ""),
                     TopFormat.bytes(connection.queuedBytes),
                     connection.path ?? "-"]
                },
                selection: state.selectedConnection
            )
            .focusName(TopState.Pane.connections.rawValue)
        }
    }
}

/// The loop's lag at each refresh, as a sparkline, with its figures.
struct LagView: View {
    let state: TopState

    var body: some View {
        if let health = state.loop?.health {
            VStack {
                Text("lag p50 \(TopFormat.lag(health.lagP50))  p99 \(TopFormat.lag(health.lagP99))  max \(TopFormat.lag(health.lagMax))")
                // A millisecond at least fills the line: below that,
                // lag is noise.
                Sparkline(state.lagHistory, floor: 0.001).foreground(.green)
            }
        } else {
            Text("the app does not measure its loop's lag").dim()
        }
    }
}

/// The events of the followed path, the newest at the bottom.
struct FollowPaneView: View {
    let state: TopState

    var body: some View {
        if state.followedPath == nil {
            Text("select a component and press f to follow it").dim()
        } else {
            VStack {
                if state.dropped > 0 {
                    Text("(\(state.dropped) events dropped)").foreground(.yellow)
                }
                BottomLines(lines: state.followed)
            }
        }
    }
}

/// Lines, as many of the last ones as fit, the last at the bottom row.
struct BottomLines: PrimitiveView {
    let lines: [String]

    func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width, height: proposal.height)
    }

    func draw(in rect: Rect, canvas: inout Canvas) {
        guard rect.size.height > 0 else { return }
        let shown = lines.suffix(rect.size.height)
        for (row, line) in shown.enumerated() {
            canvas.draw(Text(line), in: Rect(x: rect.origin.x, y: rect.origin.y + row, width: rect.size.width, height: 1))
        }
    }
}
