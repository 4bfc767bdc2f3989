import ComposeTerminal

/// The first lines: the app, its pid and uptime; the rates and counts.
struct TopHeaderView: View {
    let state: TopState

    var body: some View {
        VStack {
            Text(Self.identity(state).joined(separator: "  ")).bold()
            Text(Self.figures(state).joined(separator: "  "))
            if let problem = state.problem {
                Text(problem).foreground(.red)
            }
        }
    }

    /// `ComposeChat pid 4242 up 3m 07s events/s 12 sends/s 4.5 instances 2 connections 2`,
    /// its parts apart by `separator`: line output's one line.
    static func summary(_ state: TopState, separator: String = "  ") -> String {
        (identity(state) + figures(state)).joined(separator: separator)
    }

    /// The app, its pid and uptime (`connecting…` before the first reply).
    static func identity(_ state: TopState) -> [String] {
        guard let loop = state.loop else {
            return state.info.map { ["\($0.app)", "pid \($0.pid)", "connecting…"] } ?? ["connecting…"]
        }
        return [state.info?.app ?? loop.app, "pid \(loop.pid)", "up \(TopFormat.uptime(loop.time))"]
    }

    /// Events and sends per second, the containers' instances, the
    /// connections.
    static func figures(_ state: TopState) -> [String] {
        guard let loop = state.loop else { return [] }
        var parts: [String] = []
        if let health = loop.health { parts.append("events/s \(TopFormat.rate(health.eventsPerSecond))") }
        if let sends = state.sendsPerSecond { parts.append("sends/s \(TopFormat.rate(sends))") }
        parts.append("instances \(state.instanceCount)")
        parts.append("connections \(loop.connections?.count ?? 0)")
        return parts
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

    /// `    sessions  InstanceComponent  2 instances`.
    static func row(_ component: TopTree.Component) -> String {
        // A container's type is long (`InstanceComponent<SessionComponent>`)
        // and its instances' rows below name what it holds: its kind will do.
        let type = component.container?.kind ?? component.type
        var row = String(repeating: "  ", count: max(0, component.depth)) + component.label + "  " + type
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

    /// `path` without the root's label (`server.sessions.1.connection`):
    /// every path starts with it, and the pane is narrow.
    static func relative(_ path: String) -> String {
        guard let dot = path.firstIndex(of: ".") else { return path }
        return String(path[path.index(after: dot)...])
    }

    var body: some View {
        let connections = state.loop?.connections ?? []
        if connections.isEmpty {
            Text("no connections").dim().frame(maxWidth: .max)
        } else {
            // Two rows each, so that a narrow pane still shows the path.
            List(connections, selection: state.selectedConnection) { connection in
                Text(Self.rows(connection))
            }
            .focusName(TopState.Pane.connections.rawValue)
        }
    }

    /// `127.0.0.1:41390  0 B queued` over `  server.sessions.1.connection`.
    static func rows(_ connection: TopLoop.Connection) -> String {
        connection.peer + "  " + TopFormat.bytes(connection.queuedBytes) + " queued" + (connection.closing == true ? ", closing" : "")
            + "\n  " + (connection.path.map(relative) ?? "(held by no component)")
    }
}

/// The loop's lag at each refresh, as a sparkline, with its figures.
struct LagView: View {
    let state: TopState

    var body: some View {
        if let health = state.loop?.health {
            VStack {
                Text("p50 \(TopFormat.lag(health.lagP50)) p99 \(TopFormat.lag(health.lagP99)) max \(TopFormat.lag(health.lagMax))")
                // A millisecond at least fills the line: below that,
                // lag is noise.
                Sparkline(state.lagHistory, floor: 0.001).foreground(.green)
            }
        } else {
            Text("not measured by the app").dim().frame(maxWidth: .max)
        }
    }
}

/// The events of the followed path, the newest at the bottom.
struct FollowPaneView: View {
    let state: TopState

    var body: some View {
        if state.followedPath == nil {
            // One row, as wide as the screen: the tree gets the height.
            Text("select a component and press f to follow it").dim().frame(maxWidth: .max)
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
