import ComposeTerminalTesting
import Testing

// The views runtime seen from a test, through app.screen and app.press:
// what a user at the terminal would see and type.

/// The stepper: a count, keys to change it, a help line.
struct Stepper: Component {
    @Store var count = 0
    var observers: Void { None }
}

extension Stepper: ViewComponent {
    var view: some View { Text("count: \(count)") }
    var keyBindings: [KeyBinding] {
        KeyBinding("+", "more") { count += 1 }
        KeyBinding("-", "less") { count -= 1 }
        KeyBinding([.up, "k"], "more", isHidden: true) { count += 1 }
    }
}

struct StepperApp: Component {
    let stepper = Stepper()
    @Store var escapes = 0
    var observers: Void { None }
}

extension StepperApp: ViewComponent {
    var view: some View {
        VStack {
            ComponentView(stepper).frame(maxWidth: .max).border(title: "Stepper")
            HStack {
                Spacer()
                Text("escapes: \(escapes)")
            }
            Spacer()
            HelpLine()
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding("q", "quit") { Application.shutdown() }
        KeyBinding(.escape, "count", isHidden: true) { escapes += 1 }
    }
}

/// Two text fields, Tab between them, Enter submits.
struct Form: Component {
    @Store var name = TextInput()
    @Store var email = TextInput()
    @Store var submitted: [String] = []
    var observers: Void { None }
}

extension Form: ViewComponent {
    static var terminalModes: TerminalModes { TerminalModes.standard.union(.mouse) }

    var view: some View {
        VStack {
            HStack { Text("name:  "); TextField("your name", input: name).focusName("name") }
            HStack { Text("email: "); TextField("you@example.org", input: email).focusName("email") }
            Text("sent: \(submitted.joined(separator: ", "))")
            Spacer()
            HelpLine()
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding.input(whileFocused: "name") { name.apply($0) }
        KeyBinding.input(whileFocused: "email") { email.apply($0) }
        KeyBinding(.enter, "send") { submitted.append("\(name.text) <\(email.text)>") }
    }
}

/// A router between a list and an editor with a field.
struct NoteList: Component {
    @Store var notes = ["milk"]
    var observers: Void { None }
}

extension NoteList: ViewComponent {
    var view: some View {
        List(notes, selection: 0) { Text($0) }.focusName("notes")
    }

    var keyBindings: [KeyBinding] {
        KeyBinding("d", "delete") { if !notes.isEmpty { notes.removeFirst() } }
    }
}

struct NoteEditor: Component {
    @Store var draft = TextInput()
    var observers: Void { None }
}

extension NoteEditor: ViewComponent {
    var view: some View {
        VStack {
            Text("New note").bold()
            TextField("type here", input: draft).focusName("draft")
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding.input(whileFocused: "draft") { draft.apply($0) }
    }
}

struct NotesApp: RouterComponent {
    let list = NoteList()
    let editor = NoteEditor()
    let router = Router(start: \Self.list)
    var observers: Void { None }
}

extension NotesApp: ViewComponent {
    var view: some View {
        VStack {
            RouterView(router).border(title: "Notes")
            HelpLine()
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding("n", "new") { router.push(\Self.editor) }
        KeyBinding(.escape, "back") { router.pop() }
    }
}

@MainActor
@Suite struct ViewsRuntimeTests {
    static func stepper(width: Int = 30, height: Int = 6) -> TestApp {
        TestApp(root: StepperApp(), setUp: { $0.resize(width: width, height: height) })
    }

    /// The last row with something on it.
    static func lastLine(_ app: TestApp) -> String? {
        app.screen.split(separator: "\n").last.map(String.init)
    }

    @Test func theRootsViewIsOnTheScreen() {
        let app = Self.stepper()
        #expect(app.terminalModesAreOn)
        #expect(app.screen == """
            ┌ Stepper ───────────────────┐
            │count: 0                    │
            └────────────────────────────┘
                                escapes: 0

            q quit  + more  - less  Ctrl+…
            """)
        #expect(app.screenLines.count == 6)
        #expect(app.cell(x: 0, y: 5).character == "q")
        #expect(app.cell(x: 0, y: 5).style.attributes.contains(.bold))
        #expect(app.cell(x: 2, y: 5).style.attributes.contains(.dim))
    }

    @Test func aKeyBindingChangesStateAndTheScreenFollows() {
        let app = Self.stepper()
        app.press("+")
        #expect(app.screenLines[1] == "│count: 1                    │")
        app.press("+", times: 2)
        app.press(.up)
        app.press("k")
        #expect(app.screenLines[1] == "│count: 5                    │")
        app.press("-")
        #expect(app.screenLines[1] == "│count: 4                    │")
        #expect(app.root(as: StepperApp.self)?.stepper.count == 4)
        // A key nobody binds changes nothing.
        app.press("x")
        #expect(app.screenLines[1] == "│count: 4                    │")
    }

    @Test func aLoneEscapeReachesItsBinding() {
        let app = Self.stepper()
        app.press(.escape, times: 2)
        #expect(app.screenLines[3] == "                    escapes: 2")
    }

    @Test func aFrameAfterAOneCellChangeWritesOnlyThatCell() throws {
        let app = Self.stepper()
        let terminal = try #require(app.context.simulatedTerminal)
        let writes = terminal.writes.count
        app.press("+")
        #expect(terminal.writes.count == writes + 1)
        let frame = try #require(terminal.writes.last)
        // Move to the digit, write it (7 bytes: ESC [ 2 ; 9 H 1), no
        // redraw of the 180 cells.
        #expect(frame.count <= 16, "\(String(decoding: frame, as: UTF8.self).debugDescription)")
        // A turn that changed nothing writes nothing.
        app.press("x")
        #expect(terminal.writes.count == writes + 1)
    }

    @Test func aResizeLaysTheViewOutAgainAtTheNewWidth() {
        let app = Self.stepper()
        app.resize(width: 20, height: 5)
        #expect(app.screen == """
            ┌ Stepper ─────────┐
            │count: 0          │
            └──────────────────┘
                      escapes: 0
            q quit  + more  - l…
            """)
        app.resize(width: 34, height: 6)
        #expect(app.screenLines[0] == "┌ Stepper ───────────────────────┐")
        #expect(app.screenLines[3] == "                        escapes: 0")
        #expect(app.screenLines[5] == "q quit  + more  - less  Ctrl+C qu…")
    }

    @Test func ctrlCShutsTheAppDownAndGivesTheTerminalBack() {
        let app = Self.stepper()
        #expect(!app.isTerminalRestored)
        app.press(.ctrl("c"))
        app.runUntilExit()
        #expect(app.hasExited)
        #expect(app.exitStatus == 0)
        #expect(app.isTerminalRestored)
        #expect(!app.terminalModesAreOn)
        // The shell's screen is back.
        #expect(app.screen == "")
    }

    @Test func ctrlCInAFocusedFieldShutsTheAppDownToo() {
        let app = TestApp(root: Form(), setUp: { $0.resize(width: 40, height: 6) })
        app.type("Ada")
        app.press(.ctrl("c"))
        app.runUntilExit()
        #expect(app.hasExited)
        #expect(app.isTerminalRestored)
    }

    @Test func sigtermGivesTheTerminalBack() {
        let app = Self.stepper()
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.isTerminalRestored)
    }

    @Test func aBindingOfQuitShutsTheAppDownToo() {
        let app = Self.stepper()
        app.press("q")
        app.runUntilExit()
        #expect(app.hasExited)
        #expect(app.isTerminalRestored)
    }

    @Test func tabMovesTheFocusAndTheCursorBetweenTwoFields() {
        let app = TestApp(root: Form(), setUp: { $0.resize(width: 40, height: 6) })
        // The first field has the focus: the cursor stands in it.
        #expect(app.screenCursor == Point(x: 7, y: 0))
        app.type("Ada")
        #expect(app.screenCursor == Point(x: 10, y: 0))
        app.press(.tab)
        #expect(app.screenCursor == Point(x: 7, y: 1))
        app.type("ada@example.org")
        #expect(app.screenCursor == Point(x: 22, y: 1))
        app.press(.backTab)
        app.type(" L")
        app.press(.enter)
        #expect(app.screen == """
            name:  Ada L
            email: ada@example.org
            sent: Ada L <ada@example.org>


            Enter send  Tab next  Ctrl+C quit
            """)
        // Down and Up move the focus too, when the field does not take them.
        app.press(.down)
        #expect(app.screenCursor == Point(x: 22, y: 1))
        app.press(.up)
        #expect(app.screenCursor == Point(x: 12, y: 0))
    }

    /// A window made so small that the focused field is not drawn moves
    /// the focus to the first field meanwhile; made larger again, the
    /// focus is the user's again.
    @Test func aResizeThatHidesTheFocusedFieldKeepsTheUsersFocus() {
        let app = TestApp(root: Form(), setUp: { $0.resize(width: 40, height: 6) })
        app.press(.tab)
        #expect(app.screenCursor == Point(x: 7, y: 1))
        app.resize(width: 40, height: 1)
        #expect(app.screen == "name:  your name")
        #expect(app.screenCursor == Point(x: 7, y: 0))
        app.resize(width: 30, height: 3)
        app.resize(width: 40, height: 6)
        #expect(app.screenCursor == Point(x: 7, y: 1))
        app.type("ada")
        #expect(app.screenLines[0] == "name:  your name")
        #expect(app.screenLines[1] == "email: ada")
        // Moving the focus while the field is hidden is the user's choice:
        // it stays where they put it.
        app.resize(width: 40, height: 1)
        app.press(.tab)
        app.resize(width: 40, height: 6)
        #expect(app.screenCursor == Point(x: 7, y: 0))
    }

    @Test func aFocusedTextFieldEditsItsTextInput() {
        let app = TestApp(root: Form(), setUp: { $0.resize(width: 40, height: 6) })
        #expect(app.screenLines[0] == "name:  your name")
        #expect(app.cell(x: 7, y: 0).style.attributes.contains(.dim))
        app.type("mlk")
        app.press(.left, times: 2)
        app.type("i")
        #expect(app.screenLines[0] == "name:  milk")
        #expect(app.screenCursor == Point(x: 9, y: 0))
        app.press(.end)
        app.press(.backspace)
        app.press(.home)
        app.press(.delete)
        #expect(app.screenLines[0] == "name:  il")
        app.press(.ctrl("e"))
        app.paste("ly\nbean")
        #expect(app.screenLines[0] == "name:  illy bean")
        app.press(.ctrl("u"))
        #expect(app.screenLines[0] == "name:  your name")
        #expect(app.root(as: Form.self)?.name == TextInput())
    }

    @Test func aClickFocusesTheFieldUnderIt() {
        let app = TestApp(root: Form(), setUp: { $0.resize(width: 40, height: 6) })
        #expect(app.click(x: 12, y: 1))
        #expect(app.screenCursor == Point(x: 7, y: 1))
        app.type("x")
        #expect(app.screenLines[1] == "email: x")
    }

    @Test func theHelpLineListsTheBindingsOfWhatIsShownFocusedFirst() {
        let app = TestApp(root: NotesApp(), setUp: { $0.resize(width: 50, height: 6) })
        // The list has the focus: its bindings, then its parent's, then the runtime's.
        #expect(Self.lastLine(app) == "d delete  n new  Escape back  Ctrl+C quit")
        #expect(app.cell(x: 0, y: 5).style.attributes.contains(.bold))
        #expect(app.cell(x: 2, y: 5).style.attributes.contains(.dim))
        app.press("d")
        #expect(app.screenLines[1] == "│" + String(repeating: " ", count: 48) + "│")
        // On the editor's screen, the list and its "d" are gone.
        app.press("n")
        // The editor's field takes "n" as text: the help line leaves out
        // "n new", which the key cannot reach while the field has the focus.
        #expect(Self.lastLine(app) == "Escape back  Ctrl+C quit")
        app.press("n")
        #expect(app.screenLines[2].hasPrefix("│n "))
    }

    @Test func routingToAnotherScreenShowsItAndTheFocusFollows() {
        let app = TestApp(root: NotesApp(), setUp: { $0.resize(width: 30, height: 6) })
        #expect(app.screen == """
            ┌ Notes ─────────────────────┐
            │milk                        │
            │                            │
            │                            │
            └────────────────────────────┘
            d delete  n new  Escape back …
            """)
        app.press("n")
        #expect(app.screenLines[1] == "│New note                    │")
        #expect(app.screenLines[2] == "│type here                   │")
        // The focus moved to the editor's field with the route.
        #expect(app.screenCursor == Point(x: 1, y: 2))
        app.type("eggs")
        #expect(app.screenLines[2] == "│eggs                        │")
        app.press(.escape)
        #expect(app.screenLines[1] == "│milk                        │")
        #expect(app.screenCursor == nil)
    }
}
