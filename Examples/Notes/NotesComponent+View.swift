import ComposeApp
import ComposeTerminal

extension NotesComponent: ViewComponent {
    /// The field to type a note in, above the list of notes.
    var view: some View {
        VStack {
            TextField("type a note, then Enter", input: draft)
                .focusName("draft")
                .border(title: "New note")
            List(state.notes, selection: state.selection) { note in
                Text(note)
            }
            .focusName("notes")
            .border(title: state.isFull ? "Notes (\(state.notes.count), full)" : "Notes (\(state.notes.count))")
        }
    }

    /// While the field has the focus, what is typed edits the draft (`q`
    /// included) and Enter adds it; while the list has it, the arrows move
    /// the selection and Delete deletes. Ctrl+D deletes from either (the
    /// field does not take it).
    var keyBindings: [KeyBinding] {
        KeyBinding(.enter, "add", whileFocused: "draft") { submitDraft() }
        KeyBinding.input(whileFocused: "draft") { draft.apply($0) }
        KeyBinding(.up, "previous", whileFocused: "notes") { input.send(.moveSelection(by: -1)) }
        KeyBinding(.down, "next", whileFocused: "notes") { input.send(.moveSelection(by: 1)) }
        KeyBinding(.delete, "delete", isHidden: true, whileFocused: "notes") { input.send(.deleteSelected) }
        KeyBinding(.ctrl("d"), "delete") { input.send(.deleteSelected) }
    }
}
