/// The notes and which one is selected: a value, replaced by
/// ``reduce(_:_:)`` as a whole, and saved across runs (the component's
/// store is persisted as `notes.json`).
struct NotesState: Equatable, Codable {
    /// At most this many notes: adding one more is refused (the list's
    /// title says the list is full).
    static let maximumNotes = 1_000
    /// A longer note is cut to this many characters.
    static let maximumLength = 500

    /// The notes, oldest first.
    var notes: [String] = []
    /// The index of the selected note in ``notes``, or `nil` when there is
    /// none.
    var selection: Int?

    /// Whether ``notes`` holds ``maximumNotes``.
    var isFull: Bool { notes.count >= Self.maximumNotes }
}
