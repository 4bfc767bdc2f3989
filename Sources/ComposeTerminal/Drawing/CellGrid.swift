/// A screen's worth of cells, row by row: what views draw into and what the
/// renderer diffs against the last frame.
///
/// ```swift
/// var grid = CellGrid(size: Size(width: 20, height: 2))
/// grid.put("count: 3", at: Point(x: 0, y: 0), style: Style(attributes: .bold))
/// grid.text   // "count: 3\n"
/// ```
///
/// The grid stores its cells packed, two integers each (a character of
/// one scalar as that scalar, a grapheme cluster of several as an index
/// into a table of the grid's own), so that drawing, copying and comparing
/// a frame never touch a `String`; ``cells`` and the subscript give them
/// back as ``Cell`` values.
public struct CellGrid: Hashable, Sendable {
    /// Columns and rows.
    public private(set) var size: Size
    /// The cells, row after row (`y * size.width + x`), packed.
    private(set) var storage: [PackedCell]
    /// The grapheme clusters of more than one scalar that cells show, each
    /// once (a cell's code names one by index).
    private(set) var clusters: [Character] = []
    /// Where each cluster of ``clusters`` is, by its exact UTF-8.
    private var clusterIndices: [[UInt8]: UInt32] = [:]

    /// A grid of `size` filled with `cell` (blank by default).
    public init(size: Size, filling cell: Cell = .blank) {
        self.size = size
        storage = []
        let packed = pack(cell)
        storage = Array(repeating: packed, count: size.width * size.height)
    }

    /// The cells, row after row (`y * size.width + x`).
    public var cells: [Cell] { storage.map(unpack) }

    /// The whole grid as a rectangle.
    public var bounds: Rect { Rect(size: size) }

    /// The cell at column `x`, row `y`; a blank cell outside the grid.
    public subscript(x x: Int, y y: Int) -> Cell {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank }
        return unpack(storage[y * size.width + x])
    }

    /// Sets one cell; outside the grid, nothing happens. Writing over half
    /// of a wide character blanks its other half, so no half-character is
    /// ever left behind.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
        set(pack(cell), at: y * size.width + x, x: x)
    }

    /// Sets the cell at `index` (column `x` of its row, both inside the
    /// grid) to `cell`, blanking the other half of a wide character it
    /// writes over (see ``set(_:x:y:)``).
    @inline(__always)
    mutating func set(_ cell: PackedCell, at index: Int, x: Int) {
        let oldWidth = storage[index].width
        if oldWidth == 2, x + 1 < size.width { storage[index + 1] = .space(storage[index]) }
        if oldWidth == 0, x > 0 { storage[index - 1] = .space(storage[index - 1]) }
        storage[index] = cell
    }

    /// Replaces cell `index` by `cell` and nothing else (no half of a wide
    /// character blanked): for tests that need any sequence of cells.
    mutating func replace(at index: Int, with cell: PackedCell) {
        storage[index] = cell
    }

    /// Sets the cell at column `x`, row `y` (both inside the grid).
    @inline(__always)
    mutating func set(_ cell: PackedCell, x: Int, y: Int) {
        set(cell, at: y * size.width + x, x: x)
    }

    /// Writes printable ASCII `bytes` (one column each) from column `x` of
    /// row `y` rightwards as cells of `look` (a packed style); the columns
    /// lie inside the grid. As many ``set(_:x:y:)`` calls, a loop of them.
    mutating func write(ascii bytes: ArraySlice<UInt8>, x: Int, y: Int, look: PackedCell) {
        let base = look.with(code: 0, width: 1)
        let start = y * size.width + x
        // Over cells of one column (the usual case), each cell is simply
        // replaced; over any other, as set(_:x:y:) does, cell by cell.
        if storage[start..<(start + bytes.count)].allSatisfy({ $0.width == 1 }) {
            var index = start
            for byte in bytes {
                storage[index] = PackedCell(content: base.content | UInt64(byte), colors: base.colors)
                index += 1
            }
            return
        }
        var index = start
        var column = x
        for byte in bytes {
            set(PackedCell(content: base.content | UInt64(byte), colors: base.colors), at: index, x: column)
            index += 1
            column += 1
        }
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
        let space = PackedCell(code: 0x20, width: 1, style: style)
        var x = point.x
        for character in text {
            let width = CharacterWidth.of(character)
            if width == 0 { continue }
            if x + width > area.maxX {
                if x < area.maxX, x >= area.origin.x { set(space, x: x, y: point.y) }
                x = area.maxX
                break
            }
            if x >= area.origin.x {
                set(space.with(code: code(of: character), width: UInt8(width)), x: x, y: point.y)
                if width == 2 { set(space.with(code: 0x20, width: 0), x: x + 1, y: point.y) }
            } else if x + width > area.origin.x {
                // A wide character cut by the clip's left edge: its visible half is blank.
                set(space, x: area.origin.x, y: point.y)
            }
            x += width
        }
        return max(0, x - point.x)
    }

    /// Fills `rect` (clipped to the grid) with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let packed = pack(cell)
        for y in area.origin.y..<area.maxY {
            for x in area.origin.x..<area.maxX { set(packed, x: x, y: y) }
        }
    }

    /// Row `y` as text: continuation cells skipped, trailing spaces removed.
    public func text(row y: Int) -> String {
        guard y >= 0, y < size.height else { return "" }
        var line = ""
        for x in 0..<size.width {
            let cell = storage[y * size.width + x]
            if cell.width == 0 { continue }
            if cell.isCluster { line.append(clusters[cell.clusterIndex]) } else { line.unicodeScalars.append(cell.scalar) }
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The whole grid as text, one line per row, each ending in a newline;
    /// what a snapshot test compares.
    public var text: String {
        (0..<size.height).map { text(row: $0) + "\n" }.joined()
    }

    // MARK: Packing

    /// The character of a packed cell of this grid.
    func character(of cell: PackedCell) -> Character {
        cell.isCluster ? clusters[cell.clusterIndex] : Character(cell.scalar)
    }

    /// `cell` as a ``Cell``.
    func unpack(_ cell: PackedCell) -> Cell {
        Cell(character(of: cell), style: cell.style, width: cell.width)
    }

    /// `cell` packed (its character entered in the table when it is a
    /// cluster of several scalars).
    mutating func pack(_ cell: Cell) -> PackedCell {
        PackedCell(code: code(of: cell.character), width: cell.width, style: cell.style)
    }

    /// The code of `character`: its scalar when it is one, else its index
    /// in ``clusters`` (entered there if new).
    mutating func code(of character: Character) -> UInt32 {
        var scalars = character.unicodeScalars.makeIterator()
        if let first = scalars.next(), scalars.next() == nil { return first.value }
        let utf8 = Array(character.utf8)
        if let index = clusterIndices[utf8] { return PackedCell.clusterFlag | index }
        if clusters.count >= 2 * max(storage.count, 32) { dropUnusedClusters() }
        let index = UInt32(clusters.count)
        clusters.append(character)
        clusterIndices[utf8] = index
        return PackedCell.clusterFlag | index
    }

    /// Empties the table of clusters of those no cell shows any more (a
    /// grid written over and over with ever new clusters keeps a table no
    /// larger than twice its cells).
    private mutating func dropUnusedClusters() {
        let old = clusters
        clusters = []
        clusterIndices = [:]
        var moved: [Int: UInt32] = [:]
        for index in storage.indices where storage[index].isCluster {
            let was = storage[index].clusterIndex
            let now: UInt32
            if let known = moved[was] {
                now = known
            } else {
                now = UInt32(clusters.count)
                clusters.append(old[was])
                clusterIndices[Array(old[was].utf8)] = now
                moved[was] = now
            }
            storage[index] = storage[index].with(code: PackedCell.clusterFlag | now, width: storage[index].width)
        }
    }

    /// Whether cell `index` of this grid shows what cell `otherIndex` of
    /// `other` shows.
    @inline(__always)
    func same(_ index: Int, as other: CellGrid, _ otherIndex: Int) -> Bool {
        Self.same(storage[index], in: self, other.storage[otherIndex], in: other)
    }

    /// Whether packed cell `a` of grid `gridA` shows what `b` of `gridB` shows.
    @inline(__always)
    static func same(_ a: PackedCell, in gridA: CellGrid, _ b: PackedCell, in gridB: CellGrid) -> Bool {
        // A cluster is compared as a `Character` (canonical equivalence:
        // "e" and a combining acute is "é"), as `Cell` compares.
        if a.isCluster || b.isCluster {
            return a.look == b.look && gridA.character(of: a) == gridB.character(of: b)
        }
        return a == b
    }

    // MARK: Hashable (by what the cells show, not by the tables)

    public static func == (lhs: CellGrid, rhs: CellGrid) -> Bool {
        guard lhs.size == rhs.size, lhs.storage.count == rhs.storage.count else { return false }
        return CellRows.identical(lhs, rhs, from: 0, count: lhs.storage.count)
    }

    /// The size and each cell's width, attributes and colours: a cell of
    /// one scalar may equal one of a cluster (canonical equivalence), so
    /// the characters are left out.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        for cell in storage { hasher.combine(cell.look) }
    }
}

extension PackedCell {
    /// This cell's look with another character.
    @inline(__always)
    func with(code: UInt32, width: UInt8) -> PackedCell {
        PackedCell(content: (content & ~0xFF_FFFF_FFFF) | UInt64(code) | UInt64(width) << 32, colors: colors)
    }
}
