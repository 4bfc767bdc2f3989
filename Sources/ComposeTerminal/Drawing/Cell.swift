/// One cell of the terminal: a character and its style.
///
/// A wide character (CJK, most emoji) takes two cells: the first holds it
/// with ``width`` 2, the second is a continuation (``width`` 0) that the
/// renderer never writes on its own.
public struct Cell: Hashable, Sendable {
    /// What the cell shows; a space when blank, and on a continuation.
    public var character: Character
    /// How it is drawn.
    public var style: Style
    /// The columns ``character`` takes: 1 or 2, or 0 for the right half of
    /// a wide character.
    public var width: UInt8

    /// A cell showing `character` (1 column unless given).
    public init(_ character: Character, style: Style = .plain, width: UInt8 = 1) {
        self.character = character
        self.style = style
        self.width = width
    }

    /// A space in the terminal's own colours.
    public static let blank = Cell(" ")

    /// The right half of a wide character drawn in `style`.
    public static func continuation(_ style: Style) -> Cell {
        Cell(" ", style: style, width: 0)
    }

    /// Whether this is the right half of a wide character.
    public var isContinuation: Bool { width == 0 }
}
