/// The lines a ``View/border(_:title:)`` is drawn with.
public struct BorderStyle: Hashable, Sendable {
    /// Top left, top right, bottom left and bottom right corners.
    public var topLeft, topRight, bottomLeft, bottomRight: Character
    /// The top and bottom edges, and the left and right ones.
    public var horizontal, vertical: Character

    /// A border of these characters (each should be one column wide).
    public init(topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character, horizontal: Character, vertical: Character) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// `┌─┐ │ └─┘`
    public static let plain = BorderStyle(topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│")
    /// `╭─╮ │ ╰─╯`
    public static let rounded = BorderStyle(topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─", vertical: "│")
    /// `╔═╗ ║ ╚═╝`
    public static let double = BorderStyle(topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝", horizontal: "═", vertical: "║")
    /// `┏━┓ ┃ ┗━┛`
    public static let heavy = BorderStyle(topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛", horizontal: "━", vertical: "┃")
}

/// A view inside a box of lines, with an optional title in its top edge.
///
/// The box takes one cell on each side. A rectangle less than two cells
/// wide or high has no room for it: the view is drawn alone there. A
/// title asks for room for all of it (its width and 5 columns), also when
/// a stack measures the least the view needs; given less, it is cut with
/// "…".
public struct BorderedView<Content: View>: PrimitiveView {
    let content: Content
    let style: BorderStyle
    let title: String?

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        guard !proposal.isTooDeep else { return .zero }
        let inner = content.sizeThatFits(proposal.inset(by: EdgeInsets(1)))
        // A title asks for its whole row ("┌ Title ─┐": its width and 5),
        // however little is offered: a stack measuring its least (offering
        // nothing) keeps it whole, and the parent cuts what overflows.
        let titleWidth = title.map { $0.isEmpty ? 0 : Text(" " + $0 + " ").sizeThatFits(ProposedSize(width: .max, height: 1)).width + 3 } ?? 0
        return Size(width: max(inner.width + 2, titleWidth), height: inner.height + 2)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        guard rect.size.width >= 2, rect.size.height >= 2 else {
            canvas.draw(content, in: rect)
            return
        }
        let left = rect.origin.x, right = rect.maxX - 1, top = rect.origin.y, bottom = rect.maxY - 1
        let line = canvas.style
        func cell(_ character: Character) -> Cell { Cell(character, style: line) }
        canvas.set(cell(style.topLeft), x: left, y: top)
        canvas.set(cell(style.topRight), x: right, y: top)
        canvas.set(cell(style.bottomLeft), x: left, y: bottom)
        canvas.set(cell(style.bottomRight), x: right, y: bottom)
        for x in (left + 1)..<right {
            canvas.set(cell(style.horizontal), x: x, y: top)
            canvas.set(cell(style.horizontal), x: x, y: bottom)
        }
        for y in (top + 1)..<bottom {
            canvas.set(cell(style.vertical), x: left, y: y)
            canvas.set(cell(style.vertical), x: right, y: y)
        }
        // "┌ Title ───┐": the title needs a corner, a space each side and
        // a cell of edge on the right; it is truncated to that room.
        if let title, !title.isEmpty, rect.size.width >= 5 {
            let label = Text(" " + title + " ")
            let natural = label.sizeThatFits(ProposedSize(width: .max, height: 1)).width
            canvas.draw(label, in: Rect(x: left + 1, y: top, width: min(rect.size.width - 3, natural), height: 1))
        }
        canvas.draw(content, in: rect.inset(by: EdgeInsets(1)))
    }
}

extension View {
    /// The view in a box of `style` lines (``BorderStyle/plain`` by
    /// default), with `title` in its top edge. The lines take the
    /// inherited style: `.border(.rounded).foreground(.cyan)` draws them
    /// (and the view) in cyan.
    ///
    /// ```swift
    /// List(notes, selection: selected) { Text($0.title) }
    ///     .border(.rounded, title: "Notes")
    /// ```
    public func border(_ style: BorderStyle = .plain, title: String? = nil) -> BorderedView<Self> {
        BorderedView(content: self, style: style, title: title)
    }
}
