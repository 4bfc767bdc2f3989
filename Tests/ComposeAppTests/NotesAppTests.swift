import ComposeApp
@testable import ComposeNotes
import ComposeTerminal
import ComposeTerminalTesting
import ComposeTesting
import Testing

/// The notes example as a whole app on TestApp's virtual terminal: typing,
/// focus moved with Tab, the list's selection, deleting, quitting, and
/// the notes kept across runs.
@MainActor
@Suite struct NotesAppTests {
    /// A small screen, so that the snapshots stay readable.
    static func app(setUp: (TestApp) -> Void = { _ in }) -> TestApp {
        let app = TestApp(NotesApp.self, setUp: setUp)
        app.resize(width: 60, height: 10)
        return app
    }

    @Test func aTypedNoteIsAddedWithEnter() throws {
        let app = Self.app()
        let notes = try #require(app.root(as: NotesApp.self)?.notes)
        app.type("milk")
        #expect(notes.draft.text == "milk")
        app.press(.enter)
        app.type("eggs")
        app.press(.enter)
        #expect(notes.state == NotesState(notes: ["milk", "eggs"], selection: 1))
        #expect(notes.draft.isEmpty)
        #expect(app.screen == """
        ┌ New note ────────────────────────────────────────────────┐
        │type a note, then Enter                                   │
        └──────────────────────────────────────────────────────────┘
        ┌ Notes (2) ───────────────────────────────────────────────┐
        │milk                                                      │
        │eggs                                                      │
        │                                                          │
        │                                                          │
        └──────────────────────────────────────────────────────────┘
        Enter add  Ctrl+D delete  Escape quit  Tab next  Ctrl+C quit
        """)
        // The selected note is drawn reversed across the list's width; the
        // cursor stands in the empty field.
        #expect(app.cell(x: 1, y: 5).style.attributes.contains(.reverse))
        #expect(app.cell(x: 58, y: 5).style.attributes.contains(.reverse))
        #expect(!app.cell(x: 1, y: 4).style.attributes.contains(.reverse))
        #expect(app.screenCursor == Point(x: 1, y: 1))
    }

    /// The field's bindings come first: q, and every other letter, is
    /// text there, not a key of the app.
    @Test func qTypedInTheFieldIsALetter() throws {
        let app = Self.app()
        app.type("quit q")
        #expect(app.exitStatus == nil)
        #expect(app.root(as: NotesApp.self)?.notes.draft.text == "quit q")
        #expect(app.screenLines[1] == "│quit q" + String(repeating: " ", count: 52) + "│")
    }

    @Test func blankTextAddsNothingAndKeepsTheField() throws {
        let app = Self.app()
        app.type("   ")
        app.press(.enter)
        let notes = try #require(app.root(as: NotesApp.self)?.notes)
        #expect(notes.state.notes.isEmpty)
        #expect(notes.draft.text == "   ")
    }

    @Test func tabMovesToTheListWhereTheArrowsSelectAndDeleteDeletes() throws {
        let app = Self.app()
        let notes = try #require(app.root(as: NotesApp.self)?.notes)
        for note in ["milk", "eggs", "bread"] {
            app.type(note)
            app.press(.enter)
        }
        app.press(.tab)
        // The list's keys are shown while it has the focus.
        #expect(app.screenLines.last == "Up previous  Down next  Ctrl+D delete  Escape quit  Tab nex…")
        app.press(.up, times: 2)
        #expect(notes.state.selection == 0)
        app.press(.down)
        app.press(.delete)
        #expect(notes.state == NotesState(notes: ["milk", "bread"], selection: 1))
        // Letters typed in the list are not text.
        app.type("x")
        #expect(notes.draft.text == "")
        app.press(.backTab)
        app.type("x")
        #expect(notes.draft.text == "x")
    }

    /// Ctrl+D deletes the selected note from the field too: the field
    /// does not take it.
    @Test func ctrlDDeletesFromTheField() throws {
        let app = Self.app()
        let notes = try #require(app.root(as: NotesApp.self)?.notes)
        app.type("milk")
        app.press(.enter)
        app.type("tea")
        app.press(.ctrl("d"))
        #expect(notes.state.notes.isEmpty)
        #expect(notes.draft.text == "tea")
    }

    @Test func aPasteIsOneLineOfTheNote() throws {
        let app = Self.app()
        app.paste("milk\neggs")
        app.press(.enter)
        #expect(app.root(as: NotesApp.self)?.notes.state.notes == ["milk eggs"])
    }

    @Test(arguments: [KeyEvent.escape, .ctrl("c")])
    func escapeAndCtrlCQuit(_ key: KeyEvent) {
        let app = Self.app()
        app.type("draft")
        app.press(key)
        #expect(app.exitStatus == 0)
        #expect(app.isTerminalRestored)
        #expect(app.diagnostics.isEmpty)
    }

    /// The notes outlive the app: a second run, handed what the first one
    /// saved, shows them.
    @Test func theNotesAreThereAtTheNextStart() throws {
        let first = Self.app()
        first.type("milk")
        first.press(.enter)
        first.press(.escape)      // a graceful shutdown saves
        #expect(first.exitStatus == 0)
        #expect(first.stateStorage.state(NotesState.self, key: "notes") == NotesState(notes: ["milk"], selection: 0))

        let second = Self.app { $0.stateStorage = first.stateStorage }
        #expect(second.root(as: NotesApp.self)?.notes.state.notes == ["milk"])
        #expect(second.screenLines[4] == "│milk" + String(repeating: " ", count: 54) + "│")
    }
}
