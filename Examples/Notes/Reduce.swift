// The notes' logic, as a pure function: no emitter, no app, no terminal.

/// The state after `action`.
///
/// - Parameters:
///   - state: The state before (its selection may be out of range, as a
///     file edited by hand can leave it: it is clamped first).
///   - action: What the user did.
/// - Returns: The next state: the selection always names a note, or is
///   `nil` when there is none.
func reduce(_ state: NotesState, _ action: NotesAction) -> NotesState {
    var next = state
    next.selection = clampedSelection(state.selection, count: state.notes.count)
    switch action {
    case .add(let text):
        let note = String(text.trimmingWhitespace().prefix(NotesState.maximumLength))
        guard !note.isEmpty, !next.isFull else { return next }
        next.notes.append(note)
        next.selection = next.notes.count - 1
    case .deleteSelected:
        guard let selection = next.selection else { return next }
        next.notes.remove(at: selection)
        next.selection = clampedSelection(selection, count: next.notes.count)
    case .moveSelection(let offset):
        guard !next.notes.isEmpty else { return next }
        let (moved, overflow) = (next.selection ?? 0).addingReportingOverflow(offset)
        next.selection = clampedSelection(overflow ? (offset < 0 ? 0 : Int.max) : moved, count: next.notes.count)
    }
    return next
}

/// `selection` within `0..<count`, or `nil` when `count` is 0 or
/// `selection` is `nil`.
func clampedSelection(_ selection: Int?, count: Int) -> Int? {
    guard let selection, count > 0 else { return nil }
    return min(max(0, selection), count - 1)
}

extension StringProtocol {
    /// The text without the white space (line breaks included) at either end.
    func trimmingWhitespace() -> Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return text[first...last]
    }
}
