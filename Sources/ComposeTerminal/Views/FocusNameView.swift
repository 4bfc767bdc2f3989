/// A focusable view with a name of its own: what ``View/focusName(_:)``
/// returns.
public struct FocusNameView<Content: View>: PrimitiveView {
    let content: Content
    let name: String

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        proposal.isTooDeep ? .zero : content.sizeThatFits(proposal.offering(width: proposal.width, height: proposal.height, axis: proposal.axis))
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        canvas.naming(name) { $0.draw(content, in: rect) }
    }
}

extension View {
    /// Names the focusable view inside (a ``TextField``, a ``List``, a
    /// ``Table``) within its component's view: its ``FocusID`` is then
    /// the component's path and `name`, which key bindings refer to
    /// (``KeyBinding/input(whileFocused:_:)``) and which stays the same
    /// when views are added before it.
    ///
    /// ```swift
    /// TextField("new note", input: draft).focusName("draft")
    /// ```
    public func focusName(_ name: String) -> FocusNameView<Self> {
        FocusNameView(content: self, name: name)
    }
}
