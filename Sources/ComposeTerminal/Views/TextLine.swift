/// One row of a ``Text``: its characters with their widths and styles.
struct TextLine: Hashable, Sendable {
    struct Glyph: Hashable, Sendable {
        var character: Character
        var width: Int
        var style: Style
    }

    var glyphs: [Glyph] = []
    /// The columns it takes.
    private(set) var width = 0

    init() {}

    init(_ glyphs: some Sequence<Glyph>) {
        for glyph in glyphs { append(glyph.character, width: glyph.width, style: glyph.style) }
    }

    mutating func append(_ character: Character, width: Int, style: Style) {
        glyphs.append(Glyph(character: character, width: width, style: style))
        self.width += width
    }

    /// The line broken into rows at most `width` columns wide: at the last
    /// space that fits, or inside a word that alone is too wide. Spaces at
    /// a break are dropped.
    func wrapped(width limit: Int) -> [TextLine] {
        guard width > limit else { return [self] }
        var rows: [TextLine] = []
        var current: [Glyph] = []
        var currentWidth = 0
        var lastSpace: Int?
        func trimmed(_ glyphs: ArraySlice<Glyph>) -> TextLine {
            var end = glyphs.endIndex
            while end > glyphs.startIndex, glyphs[end - 1].character == " " { end -= 1 }
            return TextLine(glyphs[glyphs.startIndex..<end])
        }
        for glyph in glyphs {
            if current.isEmpty, glyph.character == " ", !rows.isEmpty { continue }
            if currentWidth + glyph.width <= limit {
                if glyph.character == " " { lastSpace = current.count }
                current.append(glyph)
                currentWidth += glyph.width
                continue
            }
            if glyph.character == " " {
                rows.append(trimmed(current[...]))
                current = []
                currentWidth = 0
                lastSpace = nil
                continue
            }
            if let space = lastSpace, space > 0 {
                rows.append(trimmed(current[..<space]))
                current = Array(current[(space + 1)...])
            } else if !current.isEmpty {
                rows.append(TextLine(current))
                current = []
            }
            current.append(glyph)
            currentWidth = current.reduce(0) { $0 + $1.width }
            lastSpace = nil
            while let first = current.first, first.character == " " {
                current.removeFirst()
                currentWidth -= first.width
            }
        }
        if !current.isEmpty || rows.isEmpty { rows.append(trimmed(current[...])) }
        return rows
    }

    /// Draws the row from `point`, truncated with "…" to `width` columns.
    @MainActor
    func draw(at point: Point, width limit: Int, inherited: Style, canvas: inout Canvas) {
        guard limit > 0 else { return }
        let truncates = width > limit
        let room = truncates ? limit - 1 : limit
        var x = point.x
        var lastStyle = glyphs.first?.style ?? .plain
        for glyph in glyphs {
            guard x - point.x + glyph.width <= room else { break }
            canvas.set(Cell(glyph.character, style: inherited.applying(glyph.style), width: UInt8(glyph.width)), x: x, y: point.y)
            x += glyph.width
            lastStyle = glyph.style
        }
        if truncates {
            canvas.put("…", at: Point(x: x, y: point.y), style: inherited.applying(lastStyle))
        }
    }
}
