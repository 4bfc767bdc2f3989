/// Where a narrower child sits in a ``VStack`` or a frame: at the left
/// (`leading`), in the middle, or at the right.
public enum HorizontalAlignment: Hashable, Sendable {
    case leading
    case center
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
    case top
    case center
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
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment

    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

    /// Where something of `size` sits in `rect` (clamped to it).
    func rect(of size: Size, in rect: Rect) -> Rect {
        let width = min(size.width, rect.size.width), height = min(size.height, rect.size.height)
        return Rect(x: horizontal.x(of: width, in: rect), y: vertical.y(of: height, in: rect), width: width, height: height)
    }
}

/// Space around a view, in cells, for `padding(_:)`.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Int
    public var leading: Int
    public var bottom: Int
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
