// A notes app for the terminal: type a note and press Enter to add it,
// Tab to the list, Up and Down to select one, Ctrl+D (or Delete in the
// list) to delete it, Escape or Ctrl+C to quit. The notes are saved across
// runs (`make run-notes`).
//
//   NotesState      the state: the notes and the selection (Codable, persisted)
//   NotesAction     the input: add, delete, move the selection
//   reduce          a pure function from a state and an action to the next state
//   NotesComponent  the component: the stores, `input`, and its view and
//                   key bindings (NotesComponent+View.swift)
//
// `q` is not a quit key here: typed in the field, it is a letter of the
// note (the field's bindings come before the others).
import ComposeApp
import ComposeTerminal

/// The app: the notes, and the keys that quit.
@main
struct NotesApp: StartupComponent, PassiveComponent {
    let notes = NotesComponent()
}

extension NotesApp: ViewComponent {
    /// The notes fill the screen; the keys that work are at the bottom.
    var view: some View {
        VStack {
            ComponentView(notes)
            HelpLine()
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding(.escape, "quit") { Application.shutdown() }
    }
}
