/// The room a parent offers a child when it measures it: a size, and the
/// axis of the stack the child sits in (a ``Spacer`` grows along it only).
public struct ProposedSize: Hashable, Sendable, CustomStringConvertible {
    /// Columns offered (never negative).
    public var width: Int
    /// Rows offered (never negative).
    public var height: Int
    /// The axis of the enclosing stack, or `nil` outside any stack.
    public var axis: Axis?
    /// How many views deep the view being measured is; a view nested past
    /// ``Canvas/maximumDepth`` measures as nothing (a view whose body
    /// contains itself ends there).
    public private(set) var depth = 0
    /// The components whose views are being measured around this one
    /// (a component shown inside itself measures as nothing there).
    var components: [ObjectIdentifier] = []

    /// A proposal; negative parts count as zero.
    public init(width: Int, height: Int, axis: Axis? = nil) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.axis = axis
    }

    /// `size`, outside any stack.
    public init(_ size: Size, axis: Axis? = nil) {
        self.init(width: size.width, height: size.height, axis: axis)
    }

    /// What a view offers a child of its own: `width` by `height` (along
    /// `axis`), one level deeper. Measure children with proposals made
    /// this way, so that a view that contains itself is cut.
    public func offering(width: Int, height: Int, axis: Axis? = nil) -> ProposedSize {
        var child = ProposedSize(width: width, height: height, axis: axis)
        child.depth = depth + 1
        child.components = components
        return child
    }

    /// Whether a view measured with this proposal is nested too deep to
    /// be measured (it then takes no room).
    public var isTooDeep: Bool { depth >= Canvas.maximumDepth }

    /// The proposal as a size.
    public var size: Size { Size(width: width, height: height) }

    /// The proposal shrunk by `insets` (never below zero).
    func inset(by insets: EdgeInsets) -> ProposedSize {
        offering(width: width - insets.leading - insets.trailing, height: height - insets.top - insets.bottom, axis: axis)
    }

    public var description: String { "\(width)x\(height)" }
}

/// A direction of layout: ``VStack`` stacks along `vertical`, ``HStack``
/// along `horizontal`.
public enum Axis: Hashable, Sendable {
    /// Left to right.
    case horizontal
    /// Top to bottom.
    case vertical
}
