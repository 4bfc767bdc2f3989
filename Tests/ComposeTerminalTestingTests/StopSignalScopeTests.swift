import ComposeApp
import ComposeTerminalTesting
import Testing

/// SIGTSTP from outside (`app.send(.terminalStop)`) after what might have
/// dropped its subscription (a resize, keys, a Ctrl+Z and its `fg`, a
/// second stop), in an app that binds Ctrl+Z itself, and after the end.
@MainActor
@Suite struct StopSignalScopeTests {
    @Test func aStopSignalStillSuspendsAfterResizesKeysAndContinuations() throws {
        let app = ViewsRuntimeTests.stepper()
        let terminal = try #require(app.context.simulatedTerminal)
        app.resize(width: 34, height: 6)
        app.press("+")
        app.press(.ctrl("z"))
        app.send(.continue)
        #expect(terminal.suspendCount == 1)
        app.resize(width: 30, height: 6)
        app.press("+")
        app.send(.terminalStop)
        #expect(app.isSuspended)
        #expect(terminal.suspendCount == 2)
        app.send(.continue)
        #expect(app.terminalModesAreOn)
        #expect(app.screenLines[1] == "│count: 2                    │")
        app.send(.terminalStop)
        #expect(terminal.suspendCount == 3)
        app.send(.continue)
        #expect(!app.isSuspended)
    }

    /// A binding of Ctrl+Z (an editor's undo) takes the key, not the
    /// signal: SIGTSTP is a request to stop, and the job stops.
    @Test func aBindingOfCtrlZDoesNotTakeTheSignal() throws {
        let app = TestApp(root: UndoingStepper(), setUp: { $0.resize(width: 40, height: 2) })
        app.send(.terminalStop)
        #expect(app.isSuspended)
        app.send(.continue)
        #expect(app.terminalModesAreOn)
        #expect(app.screen.hasPrefix("count: 0 undos: 0"), "\(app.screen)")
    }

    /// After the app ended (its terminal given back, the watching
    /// stopped), a SIGTSTP writes nothing and stops nothing.
    @Test func aStopSignalAfterTheEndChangesNothing() throws {
        let app = ViewsRuntimeTests.stepper()
        let terminal = try #require(app.context.simulatedTerminal)
        app.press(.ctrl("c"))
        app.runUntilExit()
        #expect(app.isTerminalRestored)
        let writes = terminal.writes.count
        app.send(.terminalStop)
        #expect(!app.isSuspended)
        #expect(terminal.suspendCount == 0)
        #expect(terminal.writes.count == writes)
    }
}
