import ComposeTerminal

/// The whole screen of `compose top`: the header, the tree beside the
/// connections and the loop's lag, the follow below, the keys.
struct TopScreen: View {
    let state: TopState

    var body: some View {
        VStack {
            TopHeaderView(state: state)
            HStack {
                TreePaneView(state: state).border(title: "Tree")
                VStack {
                    ConnectionsPaneView(state: state).border(title: "Connections")
                    LagView(state: state).border(title: "Loop lag, p99")
                }
                // The tree's rows are the longer: it gets what is left.
                .frame(maxWidth: 36)
            }
            FollowPaneView(state: state).border(title: state.followedPath.map { "Follow \($0)" } ?? "Follow")
            HelpLine()
        }
    }
}

/// What `compose top` shows without a terminal: the header, the tree and
/// the connections as plain lines (the runtime prints them each time they
/// change, so once per refresh).
struct TopLinesView: View {
    let state: TopState

    var body: some View {
        Text(Self.lines(state).joined(separator: "\n"))
    }

    static func lines(_ state: TopState) -> [String] {
        // One space apart: the line fits the 80 columns of line output.
        var lines = [TopHeaderView.summary(state, separator: " ")]
        if let problem = state.problem { lines.append(problem) }
        lines += (state.tree?.components ?? []).map(TreePaneView.row)
        lines += (state.loop?.connections ?? []).map { connection in
            "connection \(connection.peer)  queued \(TopFormat.bytes(connection.queuedBytes))  \(connection.path ?? "-")"
        }
        return lines
    }
}
