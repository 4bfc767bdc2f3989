import ComposeApp
// Persisted stores: importing it is all they need.
import ComposePersistence
import ComposeTerminal

/// The notes: their state in a persisted store, the draft being typed in
/// another, and ``reduce(_:_:)`` between the actions on ``input`` and the
/// state. Its view and key bindings are in NotesComponent+View.swift.
struct NotesComponent: Component {
    /// Saved as `notes.json` in the app's state directory
    /// (`~/.local/state/ComposeNotes/` by default) half a second after it
    /// stops changing and at shutdown; restored before the observers run.
    @Store(persistedAs: "notes") var state = NotesState()
    /// The note being typed: its text and cursor (not saved).
    @Store var draft = TextInput(maximumLength: NotesState.maximumLength)
    /// The actions, each applied by ``reduce(_:_:)``.
    let input = Emitter<NotesAction>()
}

extension NotesComponent {
    var observers: Void {
        input += { action in
            state = reduce(state, action)
        }
    }

    /// Adds the draft as a note and empties the field; a blank draft, or
    /// one the full list refuses, stays as it is.
    func submitDraft() {
        let action = NotesAction.add(draft.text)
        guard reduce(state, action) != state else { return }
        input.send(action)
        draft.clear()
    }
}
