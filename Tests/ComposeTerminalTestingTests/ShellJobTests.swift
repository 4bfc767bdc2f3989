import ComposeApp
import ComposeTerminalTesting
import Testing

// A terminal app as a shell job: stopped with Ctrl+Z and continued with
// fg (SIGCONT), and ended when the reader of its plain lines goes away
// (`app | head -1`).

/// A stepper that takes Ctrl+Z itself (an editor's undo).
struct UndoingStepper: Component {
    @Store var count = 0
    @Store var undos = 0
    var observers: Void { None }
}

extension UndoingStepper: ViewComponent {
    var view: some View {
        VStack {
            Text("count: \(count) undos: \(undos)")
            HelpLine()
        }
    }
    var keyBindings: [KeyBinding] {
        KeyBinding("+", "more") { count += 1 }
        KeyBinding(.ctrl("z"), "undo") { undos += 1 }
    }
}

/// Prints a line each time `line` sends: an app whose output is not a
/// screen.
struct Printer: Component {
    let line = Emitter<String>()
    var observers: Void {
        line += { Application.print($0) }
    }
}

@MainActor
@Suite struct ShellJobTests {
    // MARK: Ctrl+Z

    @Test func ctrlZGivesTheTerminalBackAndStopsUntilContinued() throws {
        let app = ViewsRuntimeTests.stepper()
        app.press("+")
        let before = app.screen
        #expect(before.hasPrefix("┌ Stepper"))
        #expect(!app.isSuspended)

        app.press(.ctrl("z"))
        // The shell's screen, echo and line editing: as after an exit.
        #expect(app.isSuspended)
        #expect(app.isTerminalRestored)
        #expect(!app.terminalModesAreOn)
        #expect(app.screen == "")
        #expect(!app.hasExited)
        #expect(app.logs.contains { $0.message.contains("Ctrl+Z") })
        // While stopped nothing is drawn, also on a resize.
        let terminal = try #require(app.context.simulatedTerminal)
        let writes = terminal.writes.count
        app.resize(width: 34, height: 6)
        #expect(terminal.writes.count == writes)

        // fg: the modes come back and the whole screen is drawn again (a
        // clear first: the terminal shows what the shell left there), at
        // the size the window has now.
        app.send(.continue)
        #expect(!app.isSuspended)
        #expect(app.terminalModesAreOn)
        #expect(terminal.suspendCount == 1)
        #expect(terminal.writes.count == writes + 2)
        #expect(String(decoding: try #require(terminal.writes.last), as: UTF8.self).contains("\u{1B}[2J"))
        #expect(app.screenLines[0] == "┌ Stepper ───────────────────────┐")
        #expect(app.screenLines[1] == "│count: 1                        │")

        // The app goes on as before.
        app.press("+")
        #expect(app.screenLines[1] == "│count: 2                        │")
        app.press(.ctrl("c"))
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.isTerminalRestored)
    }

    /// `kill -TSTP` from outside: raw mode keeps the terminal from sending
    /// SIGTSTP, but another process may; taken as Ctrl+Z, it gives the
    /// terminal back before the job stops, and SIGCONT redraws.
    @Test func aStopSignalFromOutsideGivesTheTerminalBackAsCtrlZDoes() throws {
        let app = ViewsRuntimeTests.stepper()
        app.press("+")
        app.send(.terminalStop)
        #expect(app.isSuspended)
        #expect(app.isTerminalRestored)
        #expect(!app.terminalModesAreOn)
        #expect(app.screen == "")
        #expect(app.logs.contains { $0.message.contains("SIGTSTP: the terminal is given back") })
        let terminal = try #require(app.context.simulatedTerminal)
        #expect(terminal.suspendCount == 1)
        // A second one while stopped changes nothing.
        app.send(.terminalStop)
        #expect(terminal.suspendCount == 1)

        app.send(.continue)
        #expect(!app.isSuspended)
        #expect(app.terminalModesAreOn)
        #expect(app.screenLines[1] == "│count: 1                    │")
        app.press("+")
        #expect(app.screenLines[1] == "│count: 2                    │")
        // And again, after the first continuation.
        app.send(.terminalStop)
        #expect(terminal.suspendCount == 2)
        app.send(.continue)
        #expect(app.terminalModesAreOn)
    }

    @Test func withoutATerminalAStopSignalChangesNothing() {
        let app = TestApp(root: StepperApp(), setUp: { $0.context.simulatedTerminal!.isTerminal = false })
        app.send(.terminalStop)
        app.press("+")
        #expect(!app.isSuspended)
        #expect(!app.hasExited)
        #expect(app.standardOutput.lines.contains("│count: 1" + String(repeating: " ", count: 70) + "│"))
    }

    @Test func aBindingOfCtrlZTakesItInstead() {
        let app = TestApp(root: UndoingStepper(), setUp: { $0.resize(width: 40, height: 2) })
        app.press(.ctrl("z"))
        #expect(!app.isSuspended)
        #expect(app.terminalModesAreOn)
        // The help line shows the key as terminal programs do: Ctrl+Z.
        #expect(app.screen == """
            count: 0 undos: 1
            + more  Ctrl+Z undo  Ctrl+C quit
            """)
    }

    @Test func aShutdownWhileStoppedGivesTheTerminalBackOnce() throws {
        let app = ViewsRuntimeTests.stepper()
        app.press(.ctrl("z"))
        #expect(app.isSuspended)
        let terminal = try #require(app.context.simulatedTerminal)
        let writes = terminal.writes.count
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.isTerminalRestored)
        // Nothing more was written: no second undoing, no frame.
        #expect(terminal.writes.count == writes)
        // A SIGCONT after the end changes nothing.
        app.send(.continue)
        #expect(app.isTerminalRestored)
    }

    @Test func withoutATerminalCtrlZIsIgnored() {
        let app = TestApp(root: StepperApp(), setUp: { $0.context.simulatedTerminal!.isTerminal = false })
        app.press(.ctrl("z"))
        app.press("+")
        #expect(!app.isSuspended)
        #expect(!app.hasExited)
        #expect(app.standardOutput.lines.contains("│count: 1" + String(repeating: " ", count: 70) + "│"))
    }

    // MARK: The reader of the lines goes away

    @Test func withoutATerminalTheAppEndsWhenItsReaderGoesAway() {
        let app = TestApp(root: StepperApp(), setUp: { $0.context.simulatedTerminal!.isTerminal = false })
        #expect(app.standardOutput.lines.first == "┌ Stepper " + String(repeating: "─", count: 69) + "┐")
        let printed = app.standardOutput.lines
        // `stepper | head -3`: head has its lines and exits. The app hears
        // of it at once (a live one watches its pipe), with nothing to print.
        app.standardOutput.closeReader()
        app.runUntilExit()
        #expect(app.hasExited)
        #expect(app.exitStatus == 0)
        #expect(app.standardOutput.lines == printed)
        #expect(app.logs.contains { $0.message.contains("Standard output's reader went away") })
    }

    @Test func aReaderGoneBeforeTheFirstLineEndsTheAppAtItsFirstWrite() {
        let app = TestApp(root: StepperApp(), setUp: { app in
            app.context.simulatedTerminal!.isTerminal = false
            app.standardOutput.closeReader()
        })
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.standardOutput.lines.isEmpty)
        #expect(app.logs.filter { $0.message.contains("Standard output's reader went away") }.count == 1)
    }

    @Test func applicationPrintToAClosedReaderDropsTheLineAndGoesOn() {
        let app = TestApp(root: Printer())
        app.run { app.root(as: Printer.self)!.line.send("one") }
        app.standardOutput.closeReader()
        app.run { app.root(as: Printer.self)!.line.send("two") }
        app.runUntilIdle()
        #expect(!app.hasExited)
        #expect(app.standardOutput.lines == ["one"])
        #expect(app.standardOutput.isReaderClosed)
    }
}
