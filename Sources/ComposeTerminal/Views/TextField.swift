/// One line of editable text, as drawn: the text (or, when it is empty,
/// a dimmed placeholder) and the cursor. The component keeps the text and
/// the cursor in its state; the field only shows them.
///
/// ```swift
/// TextField("new note", text: state.draft, cursor: state.cursor)
/// ```
///
/// The field takes the width it is offered and one row. When the text is
/// wider, it scrolls so that the cursor stays in view. It is a focusable
/// view (``FocusRegion/Kind/textField``): while it has the focus, the
/// canvas's ``Canvas/cursor`` is its insertion point, where the renderer
/// shows the terminal's cursor.
public struct TextField: PrimitiveView, Hashable, Sendable {
    let placeholder: String
    let text: String
    let cursor: Int?

    /// - Parameters:
    ///   - placeholder: Shown dimmed while `text` is empty.
    ///   - text: The text.
    ///   - cursor: The insertion point, in characters from the start
    ///     (clamped to the text); `nil` puts it at the end.
    public init(_ placeholder: String = "", text: String, cursor: Int? = nil) {
        self.placeholder = placeholder
        self.text = text
        self.cursor = cursor
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width, height: 1)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        let line = Rect(x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: min(1, rect.size.height))
        guard !line.isEmpty else { return }
        let characters = Array(text.filter { CharacterWidth.of($0) > 0 })
        let index = min(max(0, cursor ?? characters.count), characters.count)
        let column = characters[..<index].reduce(0) { $0 + CharacterWidth.of($1) }
        // Scroll so the cursor cell is the last visible one when it would
        // be past the edge.
        let scroll = max(0, column - (line.size.width - 1))
        canvas.fill(line)
        canvas.clipped(to: line) { canvas in
            if characters.isEmpty {
                canvas.put(placeholder, at: line.origin, style: canvas.style.applying(Style(attributes: .dim)))
            } else {
                canvas.put(String(characters), at: Point(x: line.origin.x - scroll, y: line.origin.y))
            }
        }
        canvas.addFocusRegion(.textField, rect: line, cursor: Point(x: line.origin.x + column - scroll, y: line.origin.y))
    }
}
