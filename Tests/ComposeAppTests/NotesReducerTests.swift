@testable import ComposeNotes
import Foundation
import PropertyBased
import Testing

/// The notes example's pure function, without an app or a terminal.
@Suite struct NotesReducerTests {
    static let three = NotesState(notes: ["milk", "eggs", "bread"], selection: 1)

    @Test func aNoteIsAddedTrimmedAndSelected() {
        let next = reduce(Self.three, .add("  tea \n"))
        #expect(next == NotesState(notes: ["milk", "eggs", "bread", "tea"], selection: 3))
    }

    @Test(arguments: ["", "   ", "\n\t "])
    func blankTextAddsNothing(_ text: String) {
        #expect(reduce(Self.three, .add(text)) == Self.three)
    }

    @Test func aLongNoteIsCutAndAFullListRefusesMore() {
        let long = String(repeating: "é", count: NotesState.maximumLength + 20)
        #expect(reduce(NotesState(), .add(long)).notes == [String(repeating: "é", count: NotesState.maximumLength)])
        let full = NotesState(notes: Array(repeating: "n", count: NotesState.maximumNotes), selection: 0)
        #expect(full.isFull)
        #expect(reduce(full, .add("one more")) == full)
    }

    @Test func deletingKeepsASelectionWhileNotesRemain() {
        let second = reduce(Self.three, .deleteSelected)
        #expect(second == NotesState(notes: ["milk", "bread"], selection: 1))
        let last = reduce(second, .deleteSelected)
        #expect(last == NotesState(notes: ["milk"], selection: 0))
        let none = reduce(last, .deleteSelected)
        #expect(none == NotesState(notes: [], selection: nil))
        #expect(reduce(none, .deleteSelected) == none)
    }

    @Test func theSelectionStopsAtTheEnds() {
        #expect(reduce(Self.three, .moveSelection(by: -1)).selection == 0)
        #expect(reduce(Self.three, .moveSelection(by: -5)).selection == 0)
        #expect(reduce(Self.three, .moveSelection(by: 1)).selection == 2)
        #expect(reduce(Self.three, .moveSelection(by: .max)).selection == 2)
        #expect(reduce(NotesState(notes: ["a"], selection: 0), .moveSelection(by: .min)).selection == 0)
        #expect(reduce(NotesState(), .moveSelection(by: 1)) == NotesState())
    }

    /// A file edited by hand may hold a selection out of range: the next
    /// action starts from it clamped.
    @Test func aSelectionOutOfRangeIsClamped() {
        let restored = NotesState(notes: ["a", "b"], selection: 7)
        #expect(reduce(restored, .moveSelection(by: -1)).selection == 0)
        #expect(reduce(restored, .deleteSelected).notes == ["a"])
        #expect(reduce(NotesState(notes: [], selection: 3), .moveSelection(by: 0)).selection == nil)
    }

    /// The saved file: the notes and the selection as JSON.
    @Test func theStateIsSavedAsJSON() throws {
        let data = try JSONEncoder().encode(Self.three)
        #expect(try JSONDecoder().decode(NotesState.self, from: data) == Self.three)
    }

    /// Random actions from random states: the selection always names a
    /// note (or is nil for none), every note is trimmed, non-empty and at
    /// most the longest, and the list never passes its maximum.
    @Test func everyActionKeepsTheStatesRules() async {
        let text = Gen.int(in: 0...4).map { [" ", "a", "b c", "\n", "x"][$0] }.array(of: 0...4).map { $0.joined() }
        let action = Gen.oneOf(
            text.map { NotesAction.add($0) },
            Gen.always(NotesAction.deleteSelected),
            Gen.int(in: -3...3).map { NotesAction.moveSelection(by: $0) }
        )
        await propertyCheck(count: 300, input: Gen.int(in: -2...5), action.array(of: 0...30)) { start, actions in
            var state = NotesState(notes: ["first"], selection: start)
            for action in actions {
                let before = state
                state = reduce(state, action)
                if let selection = state.selection {
                    #expect(state.notes.indices.contains(selection), "\(before) \(action) -> \(state)")
                } else {
                    #expect(state.notes.isEmpty, "\(before) \(action) -> \(state)")
                }
                #expect(state.notes.count <= NotesState.maximumNotes)
                for note in state.notes {
                    #expect(!note.isEmpty && note == String(note.trimmingWhitespace()) && note.count <= NotesState.maximumLength)
                }
                if case .add(let text) = action, !text.trimmingWhitespace().isEmpty {
                    #expect(state.notes.last == String(text.trimmingWhitespace()) && state.selection == state.notes.count - 1)
                }
            }
        }
    }
}
