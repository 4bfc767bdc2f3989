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
