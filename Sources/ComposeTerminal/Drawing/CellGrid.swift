/// A screen's worth of cells, row by row: what views draw into and what the
/// renderer diffs against the last frame.
///
/// ```swift
/// var grid = CellGrid(size: Size(width: 20, height: 2))
/// grid.put("count: 3", at: Point(x: 0, y: 0), style: Style(attributes: .bold))
/// grid.text   // "count: 3\n"
/// ```
public struct CellGrid: Hashable, Sendable {
    /// Columns and rows.
    public private(set) var size: Size
    /// The cells, row after row (`y * size.width + x`).
    public private(set) var cells: [Cell]

    /// A grid of `size` filled with `cell` (blank by default).
    public init(size: Size, filling cell: Cell = .blank) {
        self.size = size
        self.cells = Array(repeating: cell, count: size.width * size.height)
    }

    /// The whole grid as a rectangle.
    public var bounds: Rect { Rect(size: size) }

    /// The cell at column `x`, row `y`; a blank cell outside the grid.
    public subscript(x x: Int, y y: Int) -> Cell {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank }
        return cells[y * size.width + x]
    }

    /// Sets one cell; outside the grid, nothing happens. Writing over half
    /// of a wide character blanks its other half, so no half-character is
    /// ever left behind.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        let index = y * size.width + x
        // The old cell's width read in place (a copy of the cell would
        // retain and release its character).
        let oldWidth = cells[index].width
        if oldWidth == 2, x + 1 < size.width { cells[index + 1] = Cell(" ", style: cells[index].style) }
        if oldWidth == 0, x > 0 { cells[index - 1] = Cell(" ", style: cells[index - 1].style) }
        cells[index] = cell
    }

    /// Writes `text` from `point` rightwards in `style`, clipped to `clip`
    /// (the whole grid by default), and returns the columns it took. A
    /// wide character that does not fit whole is not written (its cell is
    /// left blank in `style`); control characters are skipped; the text
    /// never wraps.
    @discardableResult
    public mutating func put(_ text: some StringProtocol, at point: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard point.y >= area.origin.y, point.y < area.maxY else { return 0 }
        var x = point.x
        for character in text {
            let width = CharacterWidth.of(character)
            if width == 0 { continue }
            if x + width > area.maxX {
                if x < area.maxX, x >= area.origin.x { set(Cell(" ", style: style), x: x, y: point.y) }
                x = area.maxX
                break
            }
            if x >= area.origin.x {
                set(Cell(character, style: style, width: UInt8(width)), x: x, y: point.y)
                if width == 2 { set(.continuation(style), x: x + 1, y: point.y) }
            } else if x + width > area.origin.x {
                // A wide character cut by the clip's left edge: its visible half is blank.
                set(Cell(" ", style: style), x: area.origin.x, y: point.y)
            }
            x += width
        }
        return max(0, x - point.x)
    }

    /// Fills `rect` (clipped to the grid) with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.origin.y..<area.maxY {
            for x in area.origin.x..<area.maxX { set(cell, x: x, y: y) }
        }
    }

    /// Row `y` as text: continuation cells skipped, trailing spaces removed.
    public func text(row y: Int) -> String {
        guard y >= 0, y < size.height else { return "" }
        var line = ""
        for x in 0..<size.width {
            let cell = cells[y * size.width + x]
            if !cell.isContinuation { line.append(cell.character) }
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The whole grid as text, one line per row, each ending in a newline;
    /// what a snapshot test compares.
    public var text: String {
        (0..<size.height).map { text(row: $0) + "\n" }.joined()
    }
}
