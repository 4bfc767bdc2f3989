/// A size in terminal cells: columns wide, rows high.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A size; negative parts count as zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// No cells.
    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }
}

/// A cell position: column `x` from the left, row `y` from the top, both
/// from 0.
public struct Point: Hashable, Sendable {
    /// The column, from 0.
    public var x: Int
    /// The row, from 0.
    public var y: Int

    /// A position.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The top left corner.
    public static let zero = Point(x: 0, y: 0)
}

/// A rectangle of cells.
public struct Rect: Hashable, Sendable {
    /// The top left cell.
    public var origin: Point
    /// Columns and rows.
    public var size: Size

    /// A rectangle at `origin` of `size`.
    public init(origin: Point = .zero, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle from its parts.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The first column right of the rectangle.
    public var maxX: Int { origin.x + size.width }
    /// The first row below the rectangle.
    public var maxY: Int { origin.y + size.height }
    /// Whether it holds no cell.
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }

    /// Whether `point` lies inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= origin.x && point.x < maxX && point.y >= origin.y && point.y < maxY
    }

    /// The part of the rectangle that also lies in `other` (empty when
    /// they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(origin.x, other.origin.x), y0 = max(origin.y, other.origin.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle shrunk by `top`, `left`, `bottom` and `right` cells
    /// (never below zero).
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(x: origin.x + left, y: origin.y + top,
             width: size.width - left - right, height: size.height - top - bottom)
    }
}
