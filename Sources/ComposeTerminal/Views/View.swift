/// A piece of what the terminal shows, as a value: text, a stack of other
/// views, a list, a border around something.
///
/// A view is measured, then drawn: ``sizeThatFits(_:)`` answers how much
/// room it wants out of a ``ProposedSize``, and ``draw(in:canvas:)`` draws
/// it into the rectangle its parent gave it (which may be larger or
/// smaller than it asked for). Drawing is clipped: a view never writes a
/// cell outside its rectangle, and a tree larger than the screen is cut at
/// its edges.
///
/// Most views are built from others in ``body``, as in SwiftUI:
///
/// ```swift
/// struct Header: View {
///     let title: String
///     let count: Int
///
///     var body: some View {
///         HStack(spacing: 1) {
///             Text(title).bold()
///             Spacer()
///             Text("\(count) items").dim()
///         }
///     }
/// }
/// ```
///
/// The primitives (``Text``, ``VStack``, ``List``, ...) measure and draw
/// themselves instead; their `body` is ``EmptyView`` and never read.
@MainActor
public protocol View {
    /// The view this one is made of.
    associatedtype Body: View
    /// The view this one is made of, computed from its properties.
    @ViewBuilder var body: Body { get }
    /// The size the view takes when offered `proposal`. A view that cannot
    /// shrink (a line of text that is wrapped, a fixed frame) may answer
    /// more than was proposed; its parent then cuts it.
    func sizeThatFits(_ proposal: ProposedSize) -> Size
    /// Draws the view into `rect` of `canvas`, clipped to `rect` (the
    /// canvas's ``Canvas/clip`` already is). Zero-sized or off-screen
    /// rectangles draw nothing.
    func draw(in rect: Rect, canvas: inout Canvas)
}

extension View {
    /// Measures ``body``.
    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        guard !proposal.isTooDeep else { return .zero }
        return body.sizeThatFits(proposal.offering(width: proposal.width, height: proposal.height, axis: proposal.axis))
    }

    /// Draws ``body`` into `rect`.
    public func draw(in rect: Rect, canvas: inout Canvas) {
        canvas.draw(body, in: rect)
    }
}

/// A view that measures and draws itself (``Text``, the stacks, ``List``):
/// its ``View/body`` is an ``EmptyView`` that is never drawn. Conform a
/// view of your own to it when it draws cells directly, and implement
/// ``View/sizeThatFits(_:)`` and ``View/draw(in:canvas:)``.
@MainActor
public protocol PrimitiveView: View where Body == EmptyView {}

extension PrimitiveView {
    /// Nothing: a primitive view draws itself.
    public var body: EmptyView { return EmptyView() }
}
