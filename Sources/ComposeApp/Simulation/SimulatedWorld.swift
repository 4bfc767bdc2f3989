import Compose

/// The outside world of a test context (`TestApp`'s): its network, standard
/// input and output, file system events and child processes, all scripted by the test.
/// Loop resources bound in the context find it here and use it instead of
/// a socket, fd 0, inotify or `uv_spawn`; nothing touches the kernel, and
/// every event reaches the app through the context's virtual clock.
@MainActor
package final class SimulatedWorld {
    /// TCP servers of the app, the test's scripted servers, occupied ports.
    package let network: SimulatedNetwork
    /// What the app reads as standard input.
    package let standardInput: SimulatedStandardInput
    /// What the app writes with `Application.print(_:)`.
    package let standardOutput: SimulatedStandardOutput
    /// File-watch events and the paths that do not exist.
    package let files: SimulatedFileSystem
    /// The scripted executables and their runs.
    package let processes: SimulatedProcesses
    /// The terminal the app draws on (ComposeTerminal), 80x24 at first.
    package let terminal: SimulatedTerminal
    /// What runs at the end of each turn (see ``endTurn()``).
    var turnObservers: [@MainActor () -> Void] = []

    package init(context: AppContext) {
        network = SimulatedNetwork(context: context)
        standardInput = SimulatedStandardInput(context: context)
        standardOutput = SimulatedStandardOutput()
        files = SimulatedFileSystem(context: context)
        processes = SimulatedProcesses(context: context)
        terminal = SimulatedTerminal(context: context)
    }
}

extension AppContext {
    /// The simulated world of a test context (`TestApp`'s); `nil` in a live
    /// app and in a test context without one (`TestHost`'s).
    package var simulation: SimulatedWorld? { runtime as? SimulatedWorld }

    /// The simulated network of a test context (`TestApp`'s).
    package var simulatedNetwork: SimulatedNetwork? { simulation?.network }

    /// Runs `action` on this context's clock after `delay` (`.zero`: once
    /// the call that asked for it has returned), as this app's code.
    /// Does nothing without a clock.
    @discardableResult
    func simulate(after delay: Duration = .zero, _ action: @escaping @MainActor () -> Void) -> ScheduledAction? {
        scheduler?.schedule(after: delay) { [weak self] in
            guard let self else { return }
            run(action)
        }
    }
}
