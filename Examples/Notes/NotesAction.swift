/// What the notes accept (the component's `input`).
enum NotesAction: Equatable, Sendable, Codable {
    /// Add a note with this text (trimmed, cut to
    /// ``NotesState/maximumLength``); blank text adds nothing.
    case add(String)
    /// Delete the selected note.
    case deleteSelected
    /// Move the selection by this many rows (negative: up), stopping at
    /// the first and the last note.
    case moveSelection(by: Int)
}
