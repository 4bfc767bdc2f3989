/// Several views as one: what a ``ViewBuilder`` closure returns. Inside a
/// stack, a list or another builder its children are taken one by one;
/// drawn on its own, it stacks them top to bottom like a ``VStack``.
///
/// ```swift
/// var view: some View {          // a Group of two texts
///     Text("Title").bold()
///     Text("body")
/// }
/// ```
public struct Group: PrimitiveView, ViewList {
    /// The views, in order.
    public let children: [any View]

    /// The views `content` builds.
    public init(@ViewBuilder content: () -> Group) {
        self = content()
    }

    init(children: [any View]) {
        self.children = children
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        if children.count == 1 { return proposal.isTooDeep ? .zero : children[0].sizeThatFits(proposal.offering(width: proposal.width, height: proposal.height, axis: proposal.axis)) }
        return StackLayout(axis: .vertical, spacing: 0, children: children).size(for: proposal)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        if children.count == 1 {
            canvas.draw(children[0], in: rect)
            return
        }
        StackLayout(axis: .vertical, spacing: 0, children: children).draw(in: rect, crossAlignment: .leading, canvas: &canvas)
    }
}

/// Nothing: no size, no cells. What a component without a view shows.
public struct EmptyView: View, Hashable, Sendable {
    /// Nothing.
    public init() {}

    /// Itself: it draws itself (nothing).
    public var body: EmptyView { return self }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size { .zero }

    public func draw(in rect: Rect, canvas: inout Canvas) {}
}

/// One view per element of a collection, for stacks, lists and builders.
///
/// ```swift
/// VStack {
///     ForEach(notes) { note in
///         Text(note.title)
///     }
/// }
/// ```
///
/// A `for … in` loop in a ``ViewBuilder`` closure does the same.
public struct ForEach: PrimitiveView, ViewList {
    /// The views made, in order (a ``Group`` made for an element adds its
    /// children).
    public let children: [any View]

    /// One or more views per element of `data`.
    public init<Data: Sequence>(_ data: Data, @ViewBuilder content: (Data.Element) -> Group) {
        children = data.flatMap { content($0).children }
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Group(children: children).sizeThatFits(proposal)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        Group(children: children).draw(in: rect, canvas: &canvas)
    }
}
