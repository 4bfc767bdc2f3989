/// Where a narrower child sits in a ``VStack`` or a frame: at the left
/// (`leading`), in the middle, or at the right.
public enum HorizontalAlignment: Hashable, Sendable {
    /// At the left.
    case leading
    /// In the middle (a column to the left when it cannot be exact).
    case center
    /// At the right.
    case trailing

    /// The x at which something `width` wide starts in `rect`.
    func x(of width: Int, in rect: Rect) -> Int {
        switch self {
        case .leading: rect.origin.x
        case .center: rect.origin.x + max(0, rect.size.width - width) / 2
        case .trailing: rect.origin.x + max(0, rect.size.width - width)
        }
    }
}

/// Where a shorter child sits in an ``HStack`` or a frame: at the top, in
/// the middle, or at the bottom.
public enum VerticalAlignment: Hashable, Sendable {
    /// At the top.
    case top
    /// In the middle (a row higher when it cannot be exact).
    case center
    /// At the bottom.
    case bottom

    /// The y at which something `height` high starts in `rect`.
    func y(of height: Int, in rect: Rect) -> Int {
        switch self {
        case .top: rect.origin.y
        case .center: rect.origin.y + max(0, rect.size.height - height) / 2
        case .bottom: rect.origin.y + max(0, rect.size.height - height)
        }
    }
}

/// A horizontal and a vertical alignment, for ``View/frame(width:height:alignment:)``.
public struct Alignment: Hashable, Sendable {
    /// Where across.
    public var horizontal: HorizontalAlignment
    /// Where down.
    public var vertical: VerticalAlignment

    /// An alignment from its two parts.
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// The top left corner.
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    /// The middle of the top edge.
    public static let top = Alignment(horizontal: .center, vertical: .top)
    /// The top right corner.
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    /// The middle of the left edge.
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    /// The middle.
    public static let center = Alignment(horizontal: .center, vertical: .center)
    /// The middle of the right edge.
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    /// The bottom left corner.
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    /// The middle of the bottom edge.
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    /// The bottom right corner.
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

    /// Where something of `size` sits in `rect` (clamped to it).
    func rect(of size: Size, in rect: Rect) -> Rect {
        let width = min(size.width, rect.size.width), height = min(size.height, rect.size.height)
        return Rect(x: horizontal.x(of: width, in: rect), y: vertical.y(of: height, in: rect), width: width, height: height)
    }
}

/// Space around a view, in cells, for `padding(_:)`.
public struct EdgeInsets: Hashable, Sendable {
    /// Rows above.
    public var top: Int
    /// Columns on the left.
    public var leading: Int
    /// Rows below.
    public var bottom: Int
    /// Columns on the right.
    public var trailing: Int

    /// Insets; negative ones count as zero.
    public init(top: Int = 0, leading: Int = 0, bottom: Int = 0, trailing: Int = 0) {
        self.top = max(0, top)
        self.leading = max(0, leading)
        self.bottom = max(0, bottom)
        self.trailing = max(0, trailing)
    }

    /// `length` on every side.
    public init(_ length: Int) {
        self.init(top: length, leading: length, bottom: length, trailing: length)
    }

    /// `horizontal` left and right, `vertical` above and below.
    public init(horizontal: Int = 0, vertical: Int = 0) {
        self.init(top: vertical, leading: horizontal, bottom: vertical, trailing: horizontal)
    }

    /// Columns taken left and right together.
    var width: Int { leading + trailing }
    /// Rows taken above and below together.
    var height: Int { top + bottom }
}

extension Rect {
    /// The rectangle shrunk by `insets` (never below zero).
    func inset(by insets: EdgeInsets) -> Rect {
        inset(top: insets.top, left: insets.leading, bottom: insets.bottom, right: insets.trailing)
    }
}
