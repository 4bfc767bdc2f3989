/// Views one below the other.
///
/// ```swift
/// VStack(spacing: 1) {
///     Text("Notes").bold()
///     List(notes, selection: selected) { Text($0.title) }
///     Text("q: quit").dim()
/// }
/// ```
///
/// The room is shared as docs/terminal.md ("Layout") says: text keeps its lines,
/// lists, scroll views and ``Spacer``s share what is left. Children
/// narrower than the stack sit at its left unless `alignment` says
/// otherwise (terminal screens read from the left; SwiftUI centres).
public struct VStack: PrimitiveView {
    let alignment: HorizontalAlignment
    let layout: StackLayout

    /// - Parameters:
    ///   - alignment: Where narrower children sit.
    ///   - spacing: Blank rows between children (0 by default; negative
    ///     counts as 0).
    ///   - content: The children.
    public init(alignment: HorizontalAlignment = .leading, spacing: Int = 0, @ViewBuilder content: () -> Group) {
        self.alignment = alignment
        self.layout = StackLayout(axis: .vertical, spacing: spacing, children: content().children)
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        layout.size(for: proposal.offering(width: proposal.width, height: proposal.height, axis: .vertical))
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        layout.draw(in: rect, crossAlignment: alignment, canvas: &canvas)
    }
}

/// Views side by side.
///
/// ```swift
/// HStack(spacing: 1) {
///     Text("count:")
///     Text("\(count)").bold()
///     Spacer()
///     Text("+/-").dim()
/// }
/// ```
///
/// Text that does not fit is truncated, the less flexible children
/// served first; shorter children sit at the top unless `alignment` says
/// otherwise.
public struct HStack: PrimitiveView {
    let alignment: VerticalAlignment
    let layout: StackLayout

    /// - Parameters:
    ///   - alignment: Where shorter children sit.
    ///   - spacing: Blank columns between children (0 by default; negative
    ///     counts as 0).
    ///   - content: The children.
    public init(alignment: VerticalAlignment = .top, spacing: Int = 0, @ViewBuilder content: () -> Group) {
        self.alignment = alignment
        self.layout = StackLayout(axis: .horizontal, spacing: spacing, children: content().children)
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        layout.size(for: proposal.offering(width: proposal.width, height: proposal.height, axis: .horizontal))
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        layout.draw(in: rect, crossAlignment: alignment, canvas: &canvas)
    }
}

/// Empty room that grows along its stack: pushes what follows to the
/// bottom of a ``VStack`` or the right of an ``HStack``. Spacers take
/// only the room the other children leave. Outside a stack it grows both
/// ways.
public struct Spacer: PrimitiveView, Hashable, Sendable {
    let minLength: Int

    /// A spacer at least `minLength` cells long (0 by default).
    public init(minLength: Int = 0) {
        self.minLength = max(0, minLength)
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        switch proposal.axis {
        case .vertical: Size(width: 0, height: max(minLength, proposal.height))
        case .horizontal: Size(width: max(minLength, proposal.width), height: 0)
        case nil: Size(width: max(minLength, proposal.width), height: max(minLength, proposal.height))
        }
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {}
}
