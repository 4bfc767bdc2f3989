/// How a cell is drawn: colours and attributes.
///
/// ```swift
/// let title = Style(foreground: .cyan, attributes: .bold)
/// ```
public struct Style: Hashable, Sendable {
    /// Text attributes a terminal may show (a terminal that lacks one
    /// ignores it).
    public struct Attributes: OptionSet, Hashable, Sendable {
        /// One bit per attribute.
        public let rawValue: UInt8
        /// The attributes whose bits `rawValue` sets.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Heavier text.
        public static let bold = Attributes(rawValue: 1 << 0)
        /// Fainter text.
        public static let dim = Attributes(rawValue: 1 << 1)
        /// Slanted text.
        public static let italic = Attributes(rawValue: 1 << 2)
        /// A line under the text.
        public static let underline = Attributes(rawValue: 1 << 3)
        /// Foreground and background swapped.
        public static let reverse = Attributes(rawValue: 1 << 4)
        /// A line through the text.
        public static let strikethrough = Attributes(rawValue: 1 << 5)
    }

    /// The text colour.
    public var foreground: Color
    /// The colour behind the text.
    public var background: Color
    /// Bold, dim, underline and the rest.
    public var attributes: Attributes

    /// A style; every part defaults to the terminal's own.
    public init(foreground: Color = .default, background: Color = .default, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's own colours, no attributes.
    public static let plain = Style()
}
