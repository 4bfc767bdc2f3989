internal import ComposeApp
internal import ComposeTerminal

/// The screen a test app's simulated terminal shows: its output applied to
/// a ``VirtualTerminal``, incrementally (each read applies only the bytes
/// written since the last), one per terminal (kept in its `screenStore`).
@MainActor
final class SimulatedScreen {
    private(set) var terminal: VirtualTerminal
    /// How many bytes of everything the app wrote were applied.
    private var applied = 0

    private init(size: Size) {
        terminal = VirtualTerminal(size: size)
    }

    /// The screen of `simulated`, brought up to date with its output.
    static func of(_ simulated: SimulatedTerminal) -> SimulatedScreen {
        let screen: SimulatedScreen
        if let kept = simulated.screenStore as? SimulatedScreen {
            screen = kept
        } else {
            screen = SimulatedScreen(size: size(of: simulated))
            simulated.screenStore = screen
        }
        screen.update(from: simulated)
        return screen
    }

    static func size(of simulated: SimulatedTerminal) -> Size {
        Size(width: simulated.columns, height: simulated.rows)
    }

    /// Applies what the app wrote since the last update. A resize made
    /// behind the screen's back (on the simulated terminal itself) is
    /// applied first; bytes `clearOutput()` forgot before they were seen
    /// are lost.
    private func update(from simulated: SimulatedTerminal) {
        let size = Self.size(of: simulated)
        if terminal.grid.size != size { terminal.resize(to: size) }
        let start = max(0, applied - simulated.clearedByteCount)
        let output = simulated.output
        if start < output.count { terminal.apply(output[start...]) }
        applied = simulated.clearedByteCount + output.count
    }

    /// Resizes the screen (after the output so far was applied at the old size).
    func resize(to size: Size) {
        terminal.resize(to: size)
    }
}
