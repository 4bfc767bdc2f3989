/// A cell's foreground or background colour.
///
/// Apps may use any colour; the renderer degrades it to what the terminal
/// supports (see ``ColorDepth``): 24-bit to the 256-colour palette, the
/// palette to the 16 ANSI colours, and to none under `NO_COLOR`.
///
/// ```swift
/// Style(foreground: .red, background: .rgb(30, 30, 46))
/// ```
public enum Color: Hashable, Sendable {
    /// The terminal's own colour.
    case `default`
    /// One of the 16 ANSI colours, 0–15 (8–15 are the bright ones).
    case ansi(UInt8)
    /// One of the 256 colours of the xterm palette.
    case palette(UInt8)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    public static let black = Color.ansi(0)
    public static let red = Color.ansi(1)
    public static let green = Color.ansi(2)
    public static let yellow = Color.ansi(3)
    public static let blue = Color.ansi(4)
    public static let magenta = Color.ansi(5)
    public static let cyan = Color.ansi(6)
    public static let white = Color.ansi(7)
    public static let gray = Color.ansi(8)
    public static let brightRed = Color.ansi(9)
    public static let brightGreen = Color.ansi(10)
    public static let brightYellow = Color.ansi(11)
    public static let brightBlue = Color.ansi(12)
    public static let brightMagenta = Color.ansi(13)
    public static let brightCyan = Color.ansi(14)
    public static let brightWhite = Color.ansi(15)
}
