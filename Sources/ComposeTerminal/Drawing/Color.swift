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

    /// ANSI colour 0, black.
    public static let black = Color.ansi(0)
    /// ANSI colour 1, red.
    public static let red = Color.ansi(1)
    /// ANSI colour 2, green.
    public static let green = Color.ansi(2)
    /// ANSI colour 3, yellow.
    public static let yellow = Color.ansi(3)
    /// ANSI colour 4, blue.
    public static let blue = Color.ansi(4)
    /// ANSI colour 5, magenta.
    public static let magenta = Color.ansi(5)
    /// ANSI colour 6, cyan.
    public static let cyan = Color.ansi(6)
    /// ANSI colour 7, white.
    public static let white = Color.ansi(7)
    /// ANSI colour 8, gray.
    public static let gray = Color.ansi(8)
    /// ANSI colour 9, bright red.
    public static let brightRed = Color.ansi(9)
    /// ANSI colour 10, bright green.
    public static let brightGreen = Color.ansi(10)
    /// ANSI colour 11, bright yellow.
    public static let brightYellow = Color.ansi(11)
    /// ANSI colour 12, bright blue.
    public static let brightBlue = Color.ansi(12)
    /// ANSI colour 13, bright magenta.
    public static let brightMagenta = Color.ansi(13)
    /// ANSI colour 14, bright cyan.
    public static let brightCyan = Color.ansi(14)
    /// ANSI colour 15, bright white.
    public static let brightWhite = Color.ansi(15)
}
