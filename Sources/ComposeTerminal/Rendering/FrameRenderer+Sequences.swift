/// The escape sequences FrameRenderer writes, as bytes.
enum Sequences {
    static let escape: UInt8 = 0x1B
    /// `ESC[?25l`
    static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
    /// `ESC[?25h`
    static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
    /// `ESC[0m`: the terminal's own colours, no attributes.
    static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
    /// `ESC[0m ESC[H ESC[2J`: reset the style (so the clear uses the
    /// terminal's own background), cursor home, clear the screen.
    static let resetHomeAndClear: [UInt8] = Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)

    /// Appends `ESC[` `count` `final` (the count left out when 1).
    static func appendCSI(_ count: Int, final: UInt8, to bytes: inout [UInt8]) {
        bytes.append(escape)
        bytes.append(UInt8(ascii: "["))
        if count != 1 { appendDecimal(count, to: &bytes) }
        bytes.append(final)
    }

    /// Appends `CUP` to `point` (0-based): `ESC[row;colH`, `ESC[rowH` in the
    /// first column, `ESC[H` at home.
    static func appendCursorPosition(_ point: Point, to bytes: inout [UInt8]) {
        bytes.append(escape)
        bytes.append(UInt8(ascii: "["))
        if point.x != 0 || point.y != 0 {
            appendDecimal(point.y + 1, to: &bytes)
            if point.x != 0 {
                bytes.append(UInt8(ascii: ";"))
                appendDecimal(point.x + 1, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "H"))
    }

    /// Appends `ESC[0;...m`: reset, then the style's attributes and
    /// colours (already degraded to the terminal's depth).
    static func appendStyle(_ style: Style, to bytes: inout [UInt8]) {
        bytes.append(escape)
        bytes.append(UInt8(ascii: "["))
        bytes.append(UInt8(ascii: "0"))
        let attributes = style.attributes
        if !attributes.isEmpty {
            for (attribute, code) in attributeCodes where attributes.contains(attribute) {
                bytes.append(UInt8(ascii: ";"))
                appendDecimal(code, to: &bytes)
            }
        }
        appendColor(style.foreground, base: 30, to: &bytes)
        appendColor(style.background, base: 40, to: &bytes)
        bytes.append(UInt8(ascii: "m"))
    }

    /// SGR codes of the attributes, in the order they are written.
    static let attributeCodes: [(Style.Attributes, Int)] = [
        (.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4), (.reverse, 7), (.strikethrough, 9),
    ]

    /// `;30+n` / `;90+n-8`, `;38;5;n`, `;38;2;r;g;b` (base 30), the same
    /// from 40 for the background; nothing for the default colour.
    static func appendColor(_ color: Color, base: Int, to bytes: inout [UInt8]) {
        switch color {
        case .default:
            return
        case .ansi(let index) where index < 16:
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(index < 8 ? base + Int(index) : base + 60 + Int(index) - 8, to: &bytes)
        case .ansi(let index), .palette(let index):
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(base + 8, to: &bytes)
            bytes.append(UInt8(ascii: ";"))
            bytes.append(UInt8(ascii: "5"))
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(Int(index), to: &bytes)
        case .rgb(let r, let g, let b):
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(base + 8, to: &bytes)
            bytes.append(UInt8(ascii: ";"))
            bytes.append(UInt8(ascii: "2"))
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(Int(r), to: &bytes)
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(Int(g), to: &bytes)
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(Int(b), to: &bytes)
        }
    }

    /// Appends `value` (not negative) in decimal.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
