/// Styled text: one or more lines (split at newlines), in the inherited
/// style with its own on top.
///
/// ```swift
/// Text("count: ") + Text("\(count)").bold().foreground(.green)
/// Text(note.body).overflow(.wrap)
/// ```
///
/// **Lines too wide** for the text's rectangle are truncated with "…"
/// (the default, ``Overflow/truncate``): a line of text stays one row,
/// which is what lists, tables and status lines want. With
/// ``Overflow/wrap`` the text breaks at spaces (inside a word only when
/// the word alone is too wide) and takes as many rows as it needs; its
/// parent cuts the rows that do not fit.
///
/// Wide characters (CJK, emoji) take two columns; one that does not fit
/// whole leaves its cell blank. Tabs become four spaces; other control
/// characters are not drawn.
public struct Text: PrimitiveView, Hashable, Sendable {
    /// What a line wider than the text's rectangle becomes.
    public enum Overflow: Hashable, Sendable {
        /// Cut to fit, ending in "…".
        case truncate
        /// Broken into several rows at spaces.
        case wrap
    }

    struct Run: Hashable, Sendable {
        var string: String
        var style: Style
        /// The string's UTF-8 when it is all printable ASCII (one column
        /// a byte: drawn as a run of cells); `nil` for any other.
        var printableASCII: [UInt8]?

        init(string: String, style: Style) {
            self.string = string
            self.style = style
            let bytes = Array(string.utf8)
            var printable = true
            for byte in bytes where byte &- 0x20 >= 0x5F {
                printable = false
                break
            }
            printableASCII = printable ? bytes : nil
        }
    }

    var runs: [Run]
    var overflowMode: Overflow = .truncate
    /// The columns of the text when it is one line (``lineColumns``),
    /// measured once when the text is made: layout asks for them and
    /// drawing again.
    private var measuredColumns: Int?

    /// Text showing `content`, in the inherited style.
    public init(_ content: some StringProtocol) {
        self.init(content, style: .plain)
    }

    /// Text showing `content` in `style` (over the inherited one).
    public init(_ content: some StringProtocol, style: Style) {
        let run = Run(string: String(content), style: style)
        runs = [run]
        measuredColumns = run.printableASCII?.count ?? Self.lineColumns(of: run.string)
    }

    /// The text as one plain string.
    public var string: String { runs.map(\.string).joined() }

    // MARK: Styling (returning Text, so styled pieces can be joined with +)

    /// The text in `style` too (colours set here win; attributes add up).
    public func style(_ style: Style) -> Text {
        var copy = self
        for index in copy.runs.indices { copy.runs[index].style = copy.runs[index].style.applying(style) }
        return copy
    }

    /// The text in bold.
    public func bold() -> Text { style(Style(attributes: .bold)) }
    /// The text dimmed (faint).
    public func dim() -> Text { style(Style(attributes: .dim)) }
    /// The text in italics (where the terminal has them).
    public func italic() -> Text { style(Style(attributes: .italic)) }
    /// The text underlined.
    public func underline() -> Text { style(Style(attributes: .underline)) }
    /// The text with foreground and background swapped.
    public func reverse() -> Text { style(Style(attributes: .reverse)) }
    /// The text struck through.
    public func strikethrough() -> Text { style(Style(attributes: .strikethrough)) }
    /// The text in colour `color`.
    public func foreground(_ color: Color) -> Text { style(Style(foreground: color)) }
    /// The text on `color` (its cells only; use ``View/background(_:)``
    /// on a container to colour a whole area).
    public func background(_ color: Color) -> Text { style(Style(background: color)) }

    /// How lines wider than the rectangle are shown (truncated by default).
    public func overflow(_ overflow: Overflow) -> Text {
        var copy = self
        copy.overflowMode = overflow
        return copy
    }

    /// Both texts, one after the other, each in its own style.
    public static func + (lhs: Text, rhs: Text) -> Text {
        var joined = lhs
        joined.runs += rhs.runs
        joined.measuredColumns = lhs.measuredColumns.flatMap { left in rhs.measuredColumns.map { left + $0 } }
        return joined
    }

    // MARK: Layout

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        if overflowMode == .truncate, let columns = lineColumns {
            return Size(width: min(columns, proposal.width), height: 1)
        }
        let lines = layout(width: proposal.width)
        let widest = lines.map(\.width).max() ?? 0
        return Size(width: min(widest, proposal.width), height: lines.count)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        if overflowMode == .truncate, let columns = lineColumns {
            drawLine(columns: columns, in: rect, canvas: &canvas)
            return
        }
        let lines = layout(width: rect.size.width)
        let inherited = canvas.style
        for (row, line) in lines.enumerated() {
            let y = rect.origin.y + row
            guard y < rect.maxY, y < canvas.clip.maxY else { break }
            guard y >= canvas.clip.origin.y else { continue }
            line.draw(at: Point(x: rect.origin.x, y: y), width: rect.size.width, inherited: inherited, canvas: &canvas)
        }
    }

    // MARK: One-line text

    /// The columns of a text that is one line (no line break, tab or
    /// other control character), or `nil` for any other: the common case,
    /// laid out and drawn in one pass over its bytes, without building
    /// its rows (``layout(width:)``).
    nonisolated var lineColumns: Int? { measuredColumns }

    /// The columns of `string` when it is one line, else `nil` (see
    /// ``lineColumns``), cluster by cluster.
    private nonisolated static func lineColumns(of string: String) -> Int? {
        var columns = 0
        var clusters = LineClusters(string)
        while true {
            columns += clusters.nextPrintableASCII(limit: .max).count
            guard let width = clusters.nextWidth() else { return columns }
            guard width >= 0 else { return nil }
            columns += width
        }
    }

    /// Draws a one-line text (``lineColumns``) on the rectangle's first
    /// row, truncated with "…" as ``TextLine`` does.
    private func drawLine(columns: Int, in rect: Rect, canvas: inout Canvas) {
        let limit = rect.size.width
        guard limit > 0, rect.size.height > 0 else { return }
        let y = rect.origin.y
        let room = columns > limit ? limit - 1 : limit
        let inherited = canvas.style
        let end = rect.origin.x + room
        var x = rect.origin.x
        var lastStyle: Style?
        runs: for run in runs {
            // The run's look (a space in its style): each cell is it with
            // another character.
            let look = PackedCell(code: 0x20, width: 1, style: inherited.applying(run.style))
            if let bytes = run.printableASCII {
                let count = min(bytes.count, end - x)
                if count > 0 {
                    canvas.put(ascii: bytes[0..<count], x: x, y: y, look: look)
                    lastStyle = run.style
                    x += count
                }
                if count < bytes.count { break runs }
                continue
            }
            var clusters = LineClusters(run.string)
            while true {
                // Printable ASCII a run at a time; any other character
                // (a scalar, a cluster of several, a control) on its own.
                let ascii = clusters.nextPrintableASCII(limit: end - x)
                if !ascii.isEmpty {
                    canvas.put(ascii: ascii, x: x, y: y, look: look)
                    lastStyle = run.style
                    x += ascii.count
                }
                let code: UInt32, width: Int
                if let (scalar, columns) = clusters.nextScalar() {
                    (code, width) = (scalar.value, columns)
                } else if let (character, columns) = clusters.next() {
                    (code, width) = (canvas.code(of: character), columns)
                } else {
                    break
                }
                guard x + width <= end else { break runs }
                guard width > 0 else { continue }
                canvas.set(look.with(code: code, width: UInt8(width)), x: x, y: y)
                lastStyle = run.style
                x += width
            }
        }
        if columns > limit {
            // In the style of the last character drawn, or of the first
            // one when none fitted.
            let style = lastStyle ?? runs.first(where: Self.takesColumns)?.style ?? .plain
            canvas.put("…", at: Point(x: x, y: y), style: inherited.applying(style))
        }
    }

    /// Whether `run` has a character that takes a column.
    private nonisolated static func takesColumns(_ run: Run) -> Bool {
        var clusters = LineClusters(run.string)
        while let width = clusters.nextWidth() {
            if width > 0 { return true }
        }
        return false
    }

    /// The rows of the text for a rectangle `width` columns wide.
    func layout(width: Int) -> [TextLine] {
        var lines: [TextLine] = [TextLine()]
        for run in runs {
            for character in run.string {
                // ASCII told apart by its byte, not by comparing characters.
                if let ascii = character.asciiValue {
                    switch ascii {
                    case 0x0A, 0x0B, 0x0C, 0x0D:  // LF (and CR LF), VT, FF, CR
                        lines.append(TextLine())
                    case 0x09:
                        for _ in 0..<4 { lines[lines.count - 1].append(" ", width: 1, style: run.style) }
                    case 0x20..<0x7F:
                        lines[lines.count - 1].append(character, width: 1, style: run.style)
                    default:
                        break
                    }
                } else if character.isNewline {
                    lines.append(TextLine())
                } else {
                    let columns = CharacterWidth.of(character)
                    if columns > 0 { lines[lines.count - 1].append(character, width: columns, style: run.style) }
                }
            }
        }
        guard overflowMode == .wrap, width > 0 else { return lines }
        return lines.flatMap { $0.wrapped(width: width) }
    }
}
