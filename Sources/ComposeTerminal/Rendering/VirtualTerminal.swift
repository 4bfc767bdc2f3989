/// A small model of a terminal screen: applies the bytes a program writes
/// (the sequences ``FrameRenderer`` emits, and a few more) to a
/// ``CellGrid``, tracking the cursor, the current style and the modes a
/// terminal app toggles.
///
/// It is what tests compare a renderer's output with, and the screen of a
/// test app: no terminal needed.
///
/// Understood: printable UTF-8 text (a run of text between two control
/// bytes is cut into grapheme clusters, as a grapheme-aware terminal does,
/// each measured by ``CharacterWidth``, with auto-wrap at the right edge and
/// scrolling at the bottom), CR, LF, BS, TAB, `CUP` (`H`, `f`), `CUU`,
/// `CUD`, `CUF`, `CUB`, `ED` (`J`: 0, 1, 2, 3), `EL` (`K`: 0, 1, 2), `SGR`
/// (`m`: attributes, the 8/16 colours, `38;5;n`, `38;2;r;g;b`, `48;...`,
/// defaults), and private modes (`?Nh`/`?Nl`: 25 cursor visible, 1049
/// alternate screen, 2004 bracketed paste, 1000/1002/1003/1006 mouse, and
/// any other recorded). Anything else is recorded in ``unsupported``
/// (bounded) and skipped, never trapped on; a sequence longer than
/// ``maximumSequenceLength`` bytes is dropped whole.
///
/// ```swift
/// var terminal = VirtualTerminal(size: Size(width: 20, height: 5))
/// terminal.apply(bytes)
/// terminal.grid.text     // what the screen shows
/// terminal.cursor        // where the cursor stands
/// ```
public struct VirtualTerminal: Sendable {
    /// What the screen shows.
    public internal(set) var grid: CellGrid
    /// Where the cursor stands (column and row from 0).
    public internal(set) var cursor = Point.zero
    /// The style text is written in.
    public internal(set) var style = Style.plain
    /// Whether the cursor is shown (`ESC[?25h`/`l`).
    public internal(set) var isCursorVisible = true
    /// Whether the alternate screen is active (`ESC[?1049h`/`l`).
    public internal(set) var isAlternateScreen = false
    /// The private modes set (`ESC[?Nh`), 25 and 1049 included.
    public internal(set) var privateModes: Set<Int> = [25]
    /// Sequences and bytes the model could not apply, in order, at most
    /// ``maximumUnsupported`` (later ones are counted in
    /// ``unsupportedDropped``).
    public internal(set) var unsupported: [String] = []
    /// How many unsupported sequences were not kept in ``unsupported``.
    public internal(set) var unsupportedDropped = 0

    /// The longest escape sequence applied; a longer one is dropped.
    public static let maximumSequenceLength = 256
    /// How many unsupported sequences ``unsupported`` keeps.
    public static let maximumUnsupported = 100
    /// The most text bytes cut into grapheme clusters at once (a longer run
    /// is cut there).
    static let maximumTextRun = 4096

    /// Whether bracketed paste is on (`ESC[?2004h`).
    public var isBracketedPaste: Bool { privateModes.contains(2004) }
    /// Whether any mouse reporting mode is on (1000, 1002, 1003).
    public var isMouseReporting: Bool { !privateModes.isDisjoint(with: [1000, 1002, 1003]) }

    /// The parser's state between two calls of ``apply(_:)``.
    var state = ParserState.ground
    /// The bytes of the sequence being read (after `ESC`).
    var sequence: [UInt8] = []
    /// Whether the sequence being read grew too long and is dropped.
    var sequenceTooLong = false
    /// Printable bytes not yet put on the grid.
    var text: [UInt8] = []
    /// Whether the cursor stands past the last column after a write there
    /// (the next character wraps first).
    var pendingWrap = false
    /// The main screen and cursor while the alternate screen is shown.
    var savedMainScreen: (grid: CellGrid, cursor: Point)?

    enum ParserState: Sendable {
        case ground, escape, csi, osc, oscEscape
    }

    /// A blank screen of `size`, the cursor home and visible.
    public init(size: Size) {
        grid = CellGrid(size: size)
    }

    /// The screen resized as a terminal window is: what fits is kept, the
    /// cursor is moved inside.
    public mutating func resize(to size: Size) {
        flushText()
        grid = Self.resized(grid, to: size)
        if let saved = savedMainScreen { savedMainScreen = (Self.resized(saved.grid, to: size), saved.cursor) }
        cursor = Point(x: min(cursor.x, max(0, size.width - 1)), y: min(cursor.y, max(0, size.height - 1)))
        pendingWrap = false
    }

    static func resized(_ grid: CellGrid, to size: Size) -> CellGrid {
        var result = CellGrid(size: size)
        for y in 0..<min(size.height, grid.size.height) {
            for x in 0..<min(size.width, grid.size.width) {
                let cell = grid[x: x, y: y]
                // A wide character cut by the new right edge is blanked.
                if cell.width == 2, x + 1 >= size.width { continue }
                result.set(cell, x: x, y: y)
            }
        }
        return result
    }

    /// Applies bytes a program wrote to the terminal.
    public mutating func apply(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { apply(byte) }
        flushText()
    }

    mutating func apply(_ byte: UInt8) {
        switch state {
        case .ground:
            if byte >= 0x20, byte != 0x7F {
                text.append(byte)
                if text.count >= Self.maximumTextRun { flushText() }
                return
            }
            flushText()
            control(byte)
        case .escape:
            switch byte {
            case UInt8(ascii: "["):
                state = .csi
            case UInt8(ascii: "]"):
                state = .osc
            default:
                record("ESC \(Self.printable([byte]))")
                state = .ground
            }
        case .csi:
            if byte >= 0x40, byte <= 0x7E {
                state = .ground
                if sequenceTooLong {
                    record("a control sequence longer than \(Self.maximumSequenceLength) bytes")
                } else {
                    controlSequence(final: byte)
                }
                sequence.removeAll(keepingCapacity: true)
                sequenceTooLong = false
            } else if byte < 0x20 || byte > 0x7E {
                // A control or non-ASCII byte inside a sequence: it is
                // broken; drop it and read the byte as text or control.
                record("ESC [\(Self.printable(sequence)) cut by byte \(byte)")
                sequence.removeAll(keepingCapacity: true)
                sequenceTooLong = false
                state = .ground
                apply(byte)
            } else {
                collect(byte)
            }
        case .osc:
            if byte == 0x07 {
                endOSC()
            } else if byte == 0x1B {
                state = .oscEscape
            } else {
                collect(byte)
            }
        case .oscEscape:
            // ESC \ ends it (any other byte too: the sequence is over).
            endOSC()
        }
    }

    mutating func collect(_ byte: UInt8) {
        if sequence.count < Self.maximumSequenceLength {
            sequence.append(byte)
        } else {
            sequenceTooLong = true
        }
    }

    mutating func endOSC() {
        record(sequenceTooLong ? "an operating system command longer than \(Self.maximumSequenceLength) bytes"
            : "OSC \(Self.printable(sequence))")
        sequence.removeAll(keepingCapacity: true)
        sequenceTooLong = false
        state = .ground
    }

    mutating func record(_ what: String) {
        if unsupported.count < Self.maximumUnsupported {
            unsupported.append(what)
        } else {
            unsupportedDropped += 1
        }
    }

    static func printable(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(32).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
