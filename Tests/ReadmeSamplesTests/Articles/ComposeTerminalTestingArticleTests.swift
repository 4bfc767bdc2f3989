// Sources/ComposeTerminalTesting/ComposeTerminalTesting.docc/ComposeTerminalTesting.md:
// the overview's test of a small terminal app, as written there.
import ComposeApp
import ComposeTerminalTesting
import Testing

/// A list of things to buy: a field to add one, Enter to add it.
struct ShoppingApp: StartupComponent {
    @Store var items: [String] = []
    @Store var draft = TextInput()
    var observers: Void { None }
}

extension ShoppingApp: ViewComponent {
    var view: some View {
        VStack {
            HStack { Text("add: "); TextField("an item", input: draft).focusName("draft") }
            List(items) { Text($0) }
            HelpLine()
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding.input(whileFocused: "draft") { draft.apply($0) }
        KeyBinding(.enter, "add") {
            items.append(draft.text)
            draft = TextInput()
        }
    }
}

@MainActor
@Test func theShoppingListAddsWhatIsTyped() {
    let app = TestApp(ShoppingApp.self, setUp: { $0.resize(width: 40, height: 4) })
    app.type("milk\n")              // keys, "\n" as Enter
    app.paste("eggs")               // one bracketed paste
    app.press(.enter)
    #expect(app.screen == """
        add: an item
        milk
        eggs
        Enter add  Tab next  Ctrl+C quit
        """)
    #expect(app.screenCursor == Point(x: 5, y: 0))   // in the field
    app.press(.ctrl("c"))
    app.runUntilExit()
    #expect(app.isTerminalRestored)
}

// "Shell jobs and pipes", as written there.
@MainActor
@Test func ctrlZSuspendsAndSIGCONTContinues() {
    let app = TestApp(ShoppingApp.self, setUp: { $0.resize(width: 40, height: 4) })
    app.press(.ctrl("z"))            // no binding takes it: suspend
    #expect(app.isSuspended)         // the stop is recorded, not done
    #expect(app.isTerminalRestored)  // the shell's screen, echo, line editing
    app.send(.continue)              // SIGCONT, as fg: modes on, a whole redraw
    #expect(app.terminalModesAreOn)
    #expect(app.screen.hasPrefix("add: an item"))
}

@MainActor
@Test func aTerminalAppInAPipeEndsWhenItsReaderGoes() {
    let app = TestApp(ShoppingApp.self, setUp: { $0.context.simulatedTerminal!.isTerminal = false })
    #expect(app.standardOutput.lines.first == "add: an item")
    app.standardOutput.closeReader() // head has its line and exits
    app.runUntilExit()
    #expect(app.exitStatus == 0)
}
