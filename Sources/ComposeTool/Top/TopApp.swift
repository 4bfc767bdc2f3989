import ComposeTerminal
import Logging

/// `compose top`: a running app seen through its inspection socket, live.
/// Every refresh (a second unless `--interval` says) it asks the app for
/// its `tree` and its `loop`; a `follow` of the path chosen streams
/// alongside. Run by the views' runtime inside the `compose` tool
/// (``TopCommand`` starts it with its own arguments).
///
/// Its settings: `socket` (the app's inspection socket), `interval`
/// (seconds between refreshes, 0.1 at least), `follow` (a path to follow
/// from the start) and `lines` (a summary as plain lines, for a pipe).
struct TopApp: StartupComponent {
    /// What is shown.
    @Store var state = TopState()
    /// The app's replies.
    @Service var source: (any InspectionSource)?
    /// The refreshes.
    let refresh: LoopTimer
    /// The path followed from the start, if any.
    let initialFollow: String?
    /// Whether the screen is the plain summary (`--lines`).
    let showsLines: Bool
    /// Whether a refresh's replies are still awaited.
    let gate = RefreshGate()

    init() {
        let config = Application.config
        let interval = max(0.1, config.double(forKey: "interval", default: 1))
        refresh = LoopTimer(every: .milliseconds(Int((interval * 1000).rounded())))
        initialFollow = config.string(forKey: "follow")
        showsLines = config.bool(forKey: "lines", default: false)
    }

    static func registerServices(in services: ServiceRegistry) {
        services.register((any InspectionSource).self) {
            SocketInspectionSource(path: Application.config.string(forKey: "socket", default: ""))
        }
    }

    static var configuration: StartupConfiguration {
        StartupConfiguration(
            // A hang-up is the terminal going away (a closed SSH session, a
            // killed tmux): top has nothing left to show, so it ends, where
            // a daemon would reload.
            shutdownSignals: [.interrupt, .terminate, .hangup],
            // Lines on standard error would be drawn over: top says what
            // goes wrong in its status line.
            makeLogHandler: { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = .critical
                return handler
            },
            // Its own keys and settings only: no COMPOSE_TOP_* surprises
            // beyond these, and no socket of its own.
            config: ConfigOptions(environmentPrefix: "COMPOSE_TOP"),
            inspection: false
        )
    }
}

extension TopApp {
    var observers: Void {
        didAppear += {
            source?.ask(TopRequest.info) { reply in
                if case .success(let info) = reply.flatMap(TopDecoding.info) { state.info = info }
            }
            refreshNow()
            if let initialFollow { follow(initialFollow) }
        }
        refresh += { refreshNow() }
    }

    /// Asks for the tree and the loop, unless the last refresh's replies
    /// are still awaited (a slow app is not asked twice as much).
    func refreshNow() {
        guard let source else { return }
        guard !gate.isWaiting else {
            gate.skipped += 1
            if gate.skipped >= RefreshGate.patience {
                state.problem = "The app has not answered for \(gate.skipped) refreshes (is its loop blocked?)."
            }
            return
        }
        gate.isWaiting = true
        gate.skipped = 0
        source.ask(TopRequest.tree) { reply in
            switch reply.flatMap(TopDecoding.tree) {
            case .success(let tree):
                state.receive(tree: tree)
                state.problem = nil
            case .failure(let failure):
                state.problem = failure.description
            }
        }
        source.ask(TopRequest.loop) { reply in
            gate.isWaiting = false
            if case .success(let loop) = reply.flatMap(TopDecoding.loop) { state.receive(loop: loop) }
        }
    }

    /// Follows `path`: its events replace those shown.
    func follow(_ path: String) {
        state.follow(path)
        source?.follow(path) { line in
            switch line {
            case .success(let text):
                if let decoded = TopDecoding.followLine(text) { state.receive(follow: decoded) }
            case .failure(let failure):
                state.problem = failure.description
            }
        }
    }
}

/// Whether a refresh's replies are awaited (a reference: the component is
/// a value, copied into its observers).
@MainActor
final class RefreshGate {
    /// Refreshes skipped while waiting before top says the app does not
    /// answer.
    static let patience = 3

    var isWaiting = false
    /// Refreshes skipped since the last one asked.
    var skipped = 0
}

extension TopApp: ViewComponent {
    var view: some View {
        if showsLines {
            TopLinesView(state: state)
        } else {
            TopScreen(state: state)
        }
    }

    /// q quits, r refreshes now; in the focused pane (Tab moves between
    /// them) the arrows select and f follows the selected path.
    var keyBindings: [KeyBinding] {
        KeyBinding("q", "quit") { Application.shutdown() }
        KeyBinding("r", "refresh") { refreshNow() }
        for pane in TopState.Pane.allCases {
            KeyBinding([.up, "k"], "select", whileFocused: pane.rawValue) { state.move(pane, by: -1) }
            KeyBinding([.down, "j"], "select", isHidden: true, whileFocused: pane.rawValue) { state.move(pane, by: 1) }
            KeyBinding("f", "follow", whileFocused: pane.rawValue) {
                if let path = state.selectedPath(in: pane) { follow(path) }
            }
        }
    }
}
