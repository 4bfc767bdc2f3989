/// Rows one below the other, one of them selected: the selected row is
/// drawn in a highlight style across the list's whole width, and the
/// list scrolls so that it is always in view.
///
/// ```swift
/// List(notes, selection: state.selected) { note in
///     Text(note.title)
/// }
/// ```
///
/// A list fills the room it is offered. It keeps no state of its own (a
/// view is a value): the window it shows is the first one, counting from
/// the top row, that holds the whole selected row. A selection out of
/// range selects nothing. The list is a focusable view
/// (``FocusRegion/Kind/list``): the runtime sends it the arrow keys.
public struct List: PrimitiveView {
    let rows: [any View]
    let selection: Int?
    let highlight: Style

    /// A list of the rows `content` builds (each child, or each child of
    /// a ``ForEach``, is a row).
    ///
    /// - Parameters:
    ///   - selection: The index of the selected row, or `nil`.
    ///   - highlight: How the selected row is drawn (reversed by default).
    ///   - content: The rows.
    public init(selection: Int? = nil, highlight: Style = Style(attributes: .reverse), @ViewBuilder content: () -> Group) {
        self.rows = content().children
        self.selection = selection
        self.highlight = highlight
    }

    /// A list with one row per element of `data`.
    ///
    /// - Parameters:
    ///   - data: The elements, one row each.
    ///   - selection: The index (from 0, in `data`'s order) of the
    ///     selected row, or `nil`.
    ///   - highlight: How the selected row is drawn (reversed by default).
    ///   - row: The row of an element.
    public init<Data: Sequence>(_ data: Data, selection: Int? = nil, highlight: Style = Style(attributes: .reverse), @ViewBuilder row: (Data.Element) -> Group) {
        self.rows = data.map { row($0) }
        self.selection = selection
        self.highlight = highlight
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        proposal.size
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        canvas.addFocusRegion(.list, rect: rect)
        guard !rows.isEmpty else { return }
        let offer = ProposedSize(rect.size).offering(width: rect.size.width, height: rect.size.height)
        let heights = rows.map { $0.sizeThatFits(offer).height }
        let selected = selection.flatMap { rows.indices.contains($0) ? $0 : nil }
        let first = selected.map { Self.firstVisibleRow(heights: heights, selected: $0, viewport: rect.size.height) } ?? 0
        var y = rect.origin.y
        for index in first..<rows.count {
            guard y < rect.maxY else { break }
            let row = Rect(x: rect.origin.x, y: y, width: rect.size.width, height: heights[index])
            if index == selected {
                canvas.styled({ $0 = $0.applying(highlight) }) { canvas in
                    canvas.fill(row)
                    canvas.draw(rows[index], in: row)
                }
            } else {
                canvas.draw(rows[index], in: row)
            }
            y += heights[index]
        }
    }

    /// The first row of the window that shows the whole of row `selected`
    /// (or its top, when it is taller than the viewport), as near the top
    /// as can be.
    static func firstVisibleRow(heights: [Int], selected: Int, viewport: Int) -> Int {
        var first = 0
        var height = heights[0...selected].reduce(0, +)
        while first < selected, height > viewport {
            height -= heights[first]
            first += 1
        }
        return first
    }
}
