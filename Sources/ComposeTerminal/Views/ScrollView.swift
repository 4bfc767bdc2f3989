/// A window onto content taller than it: the content is laid out at its
/// full height and shown from row `offset`.
///
/// ```swift
/// ScrollView(offset: state.scroll) {
///     ForEach(log) { Text($0).overflow(.wrap) }
/// }
/// ```
///
/// The offset is clamped so the window never goes past the content's
/// end. The scroll view takes the width it is offered, and at most the
/// content's height. It scrolls vertically only.
public struct ScrollView: PrimitiveView {
    let content: Group
    let offset: Int

    /// - Parameters:
    ///   - offset: The content's row shown at the top (clamped to the
    ///     content).
    ///   - content: The content, stacked like a ``VStack``'s children.
    public init(offset: Int = 0, @ViewBuilder content: () -> Group) {
        self.content = content()
        self.offset = offset
    }

    /// The content's height when shown in a window of `proposal`.
    func contentHeight(_ proposal: ProposedSize) -> Int {
        proposal.isTooDeep ? 0 : content.sizeThatFits(proposal.offering(width: proposal.width, height: proposal.height)).height
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width, height: min(proposal.height, contentHeight(proposal)))
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        let height = max(rect.size.height, contentHeight(ProposedSize(rect.size)))
        let top = min(max(0, offset), height - rect.size.height)
        canvas.clipped(to: rect) { canvas in
            canvas.draw(content, in: Rect(x: rect.origin.x, y: rect.origin.y - top, width: rect.size.width, height: height))
        }
    }
}
