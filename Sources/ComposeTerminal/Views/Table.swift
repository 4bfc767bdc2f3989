/// Rows of cells under a header, in columns: each column as wide as its
/// widest cell (or a fixed width), cells that do not fit truncated with
/// "…", and an optional selected row kept in view as in a ``List``.
///
/// ```swift
/// Table(
///     columns: [.init("Session"), .init("Peer", width: .fixed(21)), .init("Bytes", alignment: .trailing)],
///     rows: sessions.map { [$0.id, $0.peer, "\($0.bytes)"] },
///     selection: selected
/// )
/// ```
///
/// When the columns are wider together than the table, the widest
/// content-sized columns give up columns first; fixed columns keep their
/// width (and are cut at the table's right edge if even they do not fit).
/// A row with fewer cells than columns leaves the rest blank; extra cells
/// are ignored. The table fills the room it is offered; it is a
/// focusable view (``FocusRegion/Kind/table``).
public struct Table: PrimitiveView, Hashable, Sendable {
    /// A column's title, width and alignment.
    public struct Column: Hashable, Sendable {
        /// How wide a column is.
        public enum Width: Hashable, Sendable {
            /// As wide as its widest cell or title.
            case fit
            /// This many columns (negative counts as 0).
            case fixed(Int)
        }

        /// The column's title, in the header.
        public var title: String
        /// How wide the column is.
        public var width: Width
        /// Where cells narrower than the column sit.
        public var alignment: HorizontalAlignment

        /// A column titled `title`.
        public init(_ title: String, width: Width = .fit, alignment: HorizontalAlignment = .leading) {
            self.title = title
            self.width = width
            self.alignment = alignment
        }
    }

    /// The columns, left to right.
    public let columns: [Column]
    /// Each row's cells, one per column.
    public let rows: [[String]]
    /// The index of the selected row, or `nil`.
    public let selection: Int?
    let spacing: Int
    let headerStyle: Style
    let highlight: Style

    /// - Parameters:
    ///   - columns: The columns, left to right.
    ///   - rows: Each row's cells, one per column.
    ///   - selection: The index of the selected row, or `nil`.
    ///   - spacing: Blank columns between columns (1 by default).
    ///   - headerStyle: How the titles are drawn (bold by default); a rule
    ///     of `─` separates them from the rows.
    ///   - highlight: How the selected row is drawn (reversed by default).
    public init(columns: [Column], rows: [[String]], selection: Int? = nil, spacing: Int = 1,
                headerStyle: Style = Style(attributes: .bold), highlight: Style = Style(attributes: .reverse)) {
        self.columns = columns
        self.rows = rows
        self.selection = selection
        self.spacing = max(0, spacing)
        self.headerStyle = headerStyle
        self.highlight = highlight
    }

    /// The columns' widths in a table `width` columns wide.
    func columnWidths(in width: Int) -> [Int] {
        func measure(_ string: String) -> Int {
            Text(string).sizeThatFits(ProposedSize(width: .max, height: 1)).width
        }
        var widths = columns.indices.map { index -> Int in
            switch columns[index].width {
            case .fixed(let fixed): return max(0, fixed)
            case .fit: return rows.reduce(measure(columns[index].title)) { widest, row in
                index < row.count ? max(widest, measure(row[index])) : widest
            }
            }
        }
        let gaps = spacing * max(0, columns.count - 1)
        let fitting = columns.indices.filter { columns[$0].width == .fit }
        let fixedTotal = columns.indices.filter { columns[$0].width != .fit }.reduce(0) { $0 + widths[$1] }
        let budget = max(0, width - gaps - fixedTotal)
        guard fitting.reduce(0, { $0 + widths[$1] }) > budget else { return widths }
        // The largest cap with the capped widths inside the budget, then
        // what is left one column at a time to the ones the cap cut.
        var low = 0, high = fitting.map { widths[$0] }.max() ?? 0
        while low < high {
            let cap = (low + high + 1) / 2
            if fitting.reduce(0, { $0 + min(widths[$1], cap) }) <= budget { low = cap } else { high = cap - 1 }
        }
        var left = budget - fitting.reduce(0) { $0 + min(widths[$1], low) }
        for index in fitting {
            if widths[index] > low {
                widths[index] = low + (left > 0 ? 1 : 0)
                if left > 0 { left -= 1 }
            }
        }
        return widths
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        proposal.size
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        canvas.addFocusRegion(.table, rect: rect)
        let widths = columnWidths(in: rect.size.width)
        let total = widths.reduce(spacing * max(0, columns.count - 1), +)
        canvas.styled({ $0 = $0.applying(headerStyle) }) { canvas in
            drawRow(columns.map(\.title), widths: widths, at: Point(x: rect.origin.x, y: rect.origin.y), canvas: &canvas)
        }
        guard rect.size.height > 1 else { return }
        canvas.put(String(repeating: "─", count: min(total, rect.size.width)), at: Point(x: rect.origin.x, y: rect.origin.y + 1))
        let viewport = rect.size.height - 2
        guard viewport > 0, !rows.isEmpty else { return }
        let selected = selection.flatMap { rows.indices.contains($0) ? $0 : nil }
        let first = selected.map { max(0, $0 - viewport + 1) } ?? 0
        for (line, index) in (first..<min(rows.count, first + viewport)).enumerated() {
            let point = Point(x: rect.origin.x, y: rect.origin.y + 2 + line)
            if index == selected {
                canvas.styled({ $0 = $0.applying(highlight) }) { canvas in
                    canvas.fill(Rect(origin: point, size: Size(width: rect.size.width, height: 1)))
                    drawRow(rows[index], widths: widths, at: point, canvas: &canvas)
                }
            } else {
                drawRow(rows[index], widths: widths, at: point, canvas: &canvas)
            }
        }
    }

    private func drawRow(_ cells: [String], widths: [Int], at point: Point, canvas: inout Canvas) {
        var x = point.x
        for (index, width) in widths.enumerated() {
            if index < cells.count, width > 0 {
                let text = Text(cells[index])
                let size = text.sizeThatFits(ProposedSize(width: width, height: 1))
                let cell = Rect(x: x, y: point.y, width: width, height: 1)
                canvas.draw(text, in: Rect(x: columns[index].alignment.x(of: size.width, in: cell), y: point.y, width: size.width, height: 1))
            }
            x += width + spacing
        }
    }
}
