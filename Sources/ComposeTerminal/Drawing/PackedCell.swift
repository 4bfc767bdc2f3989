/// A cell as a ``CellGrid`` stores it: two integers, no reference. Copying,
/// comparing and clearing one costs a few instructions (a ``Cell`` holds a
/// `Character`, a `String`, whose every copy goes through the runtime's
/// retain and release), and a row of them compares as plain integers.
///
/// - `content`: bits 0-31 the character's code, bits 32-39 the width,
///   bits 40-47 the attributes. The code is the character's scalar when it
///   is one scalar (most of any screen); a grapheme cluster of several
///   scalars is ``clusterFlag`` plus its index in the grid's table
///   (``CellGrid/clusters``), which only that grid can read.
/// - `colors`: the foreground's code in bits 0-31, the background's in
///   bits 32-63 (``colorCode(_:)``).
///
/// Equal packed cells of one grid are equal cells; two cells that are not
/// clusters are equal exactly when their packed forms are. Two cluster
/// cells, from one grid or two, are compared through their tables.
struct PackedCell: Hashable, Sendable {
    var content: UInt64
    var colors: UInt64

    /// The code of a cell whose character is a cluster of several scalars:
    /// this bit, plus its index in the grid's table (scalars end at
    /// U+10FFFF, so no scalar has it).
    static let clusterFlag: UInt32 = 0x8000_0000

    /// A blank cell: a space in the terminal's own colours.
    static let blank = PackedCell(code: 0x20, width: 1, attributes: 0, colors: 0)

    init(content: UInt64, colors: UInt64) {
        self.content = content
        self.colors = colors
    }

    init(code: UInt32, width: UInt8, attributes: UInt8, colors: UInt64) {
        content = UInt64(code) | UInt64(width) << 32 | UInt64(attributes) << 40
        self.colors = colors
    }

    /// A cell of `code` and `width` in `style`.
    init(code: UInt32, width: UInt8, style: Style) {
        self.init(code: code, width: width, attributes: style.attributes.rawValue, colors: Self.colors(of: style))
    }

    /// A space in `style` (what overwriting half of a wide character leaves).
    static func space(_ style: PackedCell) -> PackedCell {
        PackedCell(code: 0x20, width: 1, attributes: style.attributes, colors: style.colors)
    }

    /// The character's code: a scalar, or ``clusterFlag`` and an index.
    var code: UInt32 { UInt32(truncatingIfNeeded: content) }
    /// The columns the character takes (0 on a continuation).
    var width: UInt8 { UInt8(truncatingIfNeeded: content >> 32) }
    /// ``Style/Attributes``' raw value.
    var attributes: UInt8 { UInt8(truncatingIfNeeded: content >> 40) }
    /// Whether the character is a cluster of the grid's table.
    var isCluster: Bool { code & Self.clusterFlag != 0 }
    /// The index of its cluster in the grid's table (when ``isCluster``).
    var clusterIndex: Int { Int(code & ~Self.clusterFlag) }
    /// The width, attributes and colours: all but the character.
    var look: PackedCell { PackedCell(content: content & ~0xFFFF_FFFF, colors: colors) }

    /// The scalar of a cell that is not a cluster.
    var scalar: Unicode.Scalar { Unicode.Scalar(code) ?? " " }

    /// The cell's style.
    var style: Style {
        Style(foreground: Self.color(UInt32(truncatingIfNeeded: colors)), background: Self.color(UInt32(truncatingIfNeeded: colors >> 32)),
              attributes: Style.Attributes(rawValue: attributes))
    }

    /// Whether the style is ``Style/plain``.
    var isPlain: Bool { colors == 0 && attributes == 0 }

    /// The colours of `style`, packed.
    static func colors(of style: Style) -> UInt64 {
        UInt64(colorCode(style.foreground)) | UInt64(colorCode(style.background)) << 32
    }

    /// A colour as 32 bits: its case in the high byte, its payload below
    /// (0 for the terminal's own colour).
    static func colorCode(_ color: Color) -> UInt32 {
        switch color {
        case .default: 0
        case .ansi(let index): 0x0100_0000 | UInt32(index)
        case .palette(let index): 0x0200_0000 | UInt32(index)
        case .rgb(let red, let green, let blue): 0x0300_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
        }
    }

    /// The colour of a code ``colorCode(_:)`` made.
    static func color(_ code: UInt32) -> Color {
        let payload = UInt8(truncatingIfNeeded: code)
        switch code >> 24 {
        case 1: return .ansi(payload)
        case 2: return .palette(payload)
        case 3: return .rgb(UInt8(truncatingIfNeeded: code >> 16), UInt8(truncatingIfNeeded: code >> 8), payload)
        default: return .default
        }
    }
}
