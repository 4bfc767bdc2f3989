/// Turns the terminal from the last frame into the next by writing only the
/// cells that changed.
///
/// The renderer remembers the last frame it drew, where it left the
/// terminal's cursor and which style (SGR) is active. Each call to
/// ``render(_:cursor:into:)`` appends to a byte buffer the escape sequences
/// and UTF-8 text that bring the terminal from that frame to the given one;
/// the caller writes the buffer in one write.
///
/// - The first frame, a frame of another size, and the frame after
///   ``invalidate()`` are drawn whole: reset the style, cursor home, clear
///   the screen (`ESC[0m ESC[H ESC[2J`), then every cell that is not blank.
/// - Otherwise only changed cells are written: a cursor move where the
///   next changed cell is not where the cursor stands (an absolute `CUP`,
///   or a shorter relative move, carriage return and line feed, or the
///   few unchanged cells in between rewritten when that is shorter); a
///   style (`ESC[0;...m`, reset then set) only when it differs from the
///   active one; the characters' UTF-8.
/// - A wide character is written whole: when either of its two cells
///   changed, both are rewritten, and writing over half of one that the
///   terminal shows rewrites its other half too.
/// - The cursor is hidden while cells are written and shown at the frame's
///   `cursor` afterwards (nil: left hidden); the style is reset at the end
///   of every frame that changed it.
/// - An unchanged frame with the cursor where it was writes nothing.
///
/// A cell is written as the terminal would measure it: a control
/// character, or a character whose width (``CharacterWidth``) is not the
/// cell's, is written as spaces of the cell's width, so that text from
/// outside can neither move the cursor nor send escape sequences; a
/// character of more than ``maximumCharacterBytes`` bytes of UTF-8 is cut
/// to its first scalar.
///
/// ```swift
/// var renderer = FrameRenderer(colorDepth: ColorDepth(environment: environment))
/// var bytes: [UInt8] = []
/// renderer.render(grid, cursor: nil, into: &bytes)   // one write of `bytes`
/// bytes.removeAll(keepingCapacity: true)
/// ```
public struct FrameRenderer: Sendable {
    /// The colours the terminal shows; changing it redraws the next frame
    /// whole.
    public var colorDepth: ColorDepth {
        didSet { if colorDepth != oldValue { invalidate() } }
    }

    /// The UTF-8 bytes one cell may write; a longer grapheme cluster (a
    /// base with hundreds of combining marks) is cut to its first scalar.
    public static let maximumCharacterBytes = 64

    /// The last frame as the terminal shows it.
    var previous = CellGrid(size: .zero)
    /// Whether the next frame is drawn whole.
    var needsFullRedraw = true
    /// Where the terminal's cursor stands; nil when unknown (before the
    /// first frame, and after a write into the last column, where
    /// terminals differ on what the next character does).
    var cursorPosition: Point?
    /// Whether the terminal shows its cursor; nil when unknown.
    var cursorVisible: Bool?
    /// The style the terminal writes in (already degraded).
    var activeStyle = Style.plain
    /// Whether the frame being rendered has written anything yet.
    var drawing = false

    /// A renderer for a terminal of `colorDepth` colours; its first frame
    /// is drawn whole.
    public init(colorDepth: ColorDepth = .trueColor) {
        self.colorDepth = colorDepth
    }

    /// Forgets what the terminal shows, so the next frame is drawn whole
    /// (after the terminal was cleared or written to by someone else, or a
    /// resume from suspension).
    public mutating func invalidate() {
        needsFullRedraw = true
        cursorPosition = nil
        cursorVisible = nil
        activeStyle = .plain
    }

    /// Appends to `bytes` what turns the terminal from the last frame into
    /// `grid`, and makes `grid` the last frame.
    ///
    /// - Parameters:
    ///   - grid: The frame to show. Its wide characters are expected as
    ///     ``CellGrid/put(_:at:style:clip:)`` leaves them (a width-2 cell
    ///     followed by a continuation); a width-2 cell without one, or a
    ///     continuation without its wide cell, is written as a space.
    ///   - cursor: Where to show the cursor (a focused text field's
    ///     caret); nil, or a point outside `grid`, hides it.
    ///   - bytes: The buffer the sequences are appended to; nothing is
    ///     appended when the terminal already shows `grid` and the cursor.
    public mutating func render(_ grid: CellGrid, cursor: Point? = nil, into bytes: inout [UInt8]) {
        let cursor = cursor.flatMap { grid.bounds.contains($0) ? $0 : nil }
        drawing = false
        if needsFullRedraw || grid.size != previous.size {
            beginDrawing(&bytes)
            bytes.append(contentsOf: Sequences.resetHomeAndClear)
            activeStyle = .plain
            cursorPosition = .zero
            drawCells(grid, against: nil, into: &bytes)
        } else {
            let old = previous
            drawCells(grid, against: old, into: &bytes)
        }
        finish(grid, cursor: cursor, into: &bytes)
        previous = grid
        needsFullRedraw = false
    }
}
