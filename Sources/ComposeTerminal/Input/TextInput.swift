/// One line of text being edited, and its cursor: the state behind a
/// ``TextField``, kept by the component in a store and changed by the
/// keys its binding hands it.
///
/// ```swift
/// struct NotesComponent: Component {
///     @Store var draft = TextInput()
/// }
///
/// extension NotesComponent: ViewComponent {
///     var view: some View { TextField("new note", input: draft).focusName("draft") }
///     var keyBindings: [KeyBinding] {
///         KeyBinding.input(whileFocused: "draft") { draft.apply($0) }
///     }
/// }
/// ```
///
/// The text holds at most ``maximumLength`` characters (4,096 by default);
/// what would go past it is not inserted.
public struct TextInput: Hashable, Sendable {
    /// The text.
    public private(set) var text: String
    /// The insertion point, in characters from the start (0...count).
    public private(set) var cursor: Int
    /// The most characters the text holds.
    public var maximumLength: Int

    /// `text`, with the cursor at its end.
    public init(_ text: String = "", maximumLength: Int = 4_096) {
        self.maximumLength = max(0, maximumLength)
        self.text = String(text.prefix(self.maximumLength))
        cursor = self.text.count
    }

    /// Whether the text is empty.
    public var isEmpty: Bool { text.isEmpty }

    /// Applies one input; returns whether it was one a line of text takes:
    ///
    /// - a character (with no modifier but Shift) is inserted at the
    ///   cursor, a paste too (its line breaks and tabs as spaces, other
    ///   control characters left out);
    /// - Backspace and Delete remove the character before and after the
    ///   cursor; Left, Right, Home, End (and Ctrl+A, Ctrl+E) move it;
    ///   Ctrl+U clears the text before the cursor, Ctrl+K after it,
    ///   Ctrl+W the word before it.
    ///
    /// Anything else (Enter, Tab, Escape, Up, Ctrl+C, mouse) is left to
    /// other bindings: it returns false.
    public mutating func apply(_ input: TerminalInput) -> Bool {
        switch input {
        case .paste(let pasted):
            insert(String(pasted.map { $0.isNewline || $0 == "\t" ? " " : $0 }.filter { !Self.isControl($0) }))
            return true
        case .mouse:
            return false
        case .key(let event):
            return apply(event)
        }
    }

    /// Inserts `string` at the cursor (cut at ``maximumLength``).
    public mutating func insert(_ string: String) {
        let room = max(0, maximumLength - text.count)
        let inserted = string.prefix(room)
        guard !inserted.isEmpty else { return }
        let index = text.index(text.startIndex, offsetBy: cursor)
        text.insert(contentsOf: inserted, at: index)
        cursor += inserted.count
    }

    /// Empties the text.
    public mutating func clear() {
        text = ""
        cursor = 0
    }

    private mutating func apply(_ event: KeyEvent) -> Bool {
        if let character = event.text, !Self.isControl(character) {
            insert(String(character))
            return true
        }
        if event.modifiers == .control, case .character(let character) = event.key {
            switch character {
            case "a": cursor = 0
            case "e": cursor = text.count
            case "u":
                text.removeFirst(cursor)
                cursor = 0
            case "k": text.removeLast(text.count - cursor)
            case "w": deleteWordBeforeCursor()
            default: return false
            }
            return true
        }
        guard event.modifiers.isEmpty else { return false }
        switch event.key {
        case .backspace:
            guard cursor > 0 else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor - 1))
            cursor -= 1
        case .delete:
            guard cursor < text.count else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = text.count
        default: return false
        }
        return true
    }

    private mutating func deleteWordBeforeCursor() {
        let characters = Array(text)
        var start = cursor
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        text = String(characters[..<start] + characters[cursor...])
        cursor = start
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension TextField {
    /// A field showing `input`'s text and cursor.
    ///
    /// ```swift
    /// TextField("new note", input: draft)
    /// ```
    public init(_ placeholder: String = "", input: TextInput) {
        self.init(placeholder, text: input.text, cursor: input.cursor)
    }
}
