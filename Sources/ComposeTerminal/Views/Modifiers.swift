/// A view drawn in a changed inherited style: what ``View/bold()``,
/// ``View/foreground(_:)`` and the like return.
public struct StyledView<Content: View>: PrimitiveView {
    let content: Content
    let style: Style

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        proposal.isTooDeep ? .zero : content.sizeThatFits(proposal.offering(width: proposal.width, height: proposal.height, axis: proposal.axis))
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        canvas.styled({ $0 = $0.applying(style) }) { $0.draw(content, in: rect) }
    }
}

/// A view on a coloured area: its whole rectangle is filled with the
/// colour first, and the colour is inherited by what it draws.
public struct BackgroundView<Content: View>: PrimitiveView {
    let content: Content
    let color: Color

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        proposal.isTooDeep ? .zero : content.sizeThatFits(proposal.offering(width: proposal.width, height: proposal.height, axis: proposal.axis))
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        canvas.styled({ $0.background = color }) { canvas in
            canvas.fill(rect)
            canvas.draw(content, in: rect)
        }
    }
}

/// A view with room around it.
public struct PaddedView<Content: View>: PrimitiveView {
    let content: Content
    let insets: EdgeInsets

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        guard !proposal.isTooDeep else { return .zero }
        let inner = content.sizeThatFits(proposal.inset(by: insets))
        return Size(width: inner.width + insets.width, height: inner.height + insets.height)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        canvas.draw(content, in: rect.inset(by: insets))
    }
}

/// A view in a frame of a fixed or bounded size: what
/// ``View/frame(width:height:alignment:)`` and
/// ``View/frame(minWidth:maxWidth:minHeight:maxHeight:alignment:)``
/// return.
public struct FrameView<Content: View>: PrimitiveView {
    let content: Content
    var width: Int?
    var height: Int?
    var minWidth: Int?
    var maxWidth: Int?
    var minHeight: Int?
    var maxHeight: Int?
    let alignment: Alignment

    /// One dimension: fixed, else the child's (with `proposed` offered)
    /// grown to the proposal up to `maximum`, then at least `minimum`.
    private static func length(fixed: Int?, minimum: Int?, maximum: Int?, proposed: Int, child: () -> Int) -> Int {
        if let fixed { return max(0, fixed) }
        var length = child()
        if let maximum { length = min(max(0, maximum), max(proposed, length)) }
        if let minimum { length = max(length, max(0, minimum)) }
        return length
    }

    /// What the frame offers its child.
    private func childProposal(_ proposal: ProposedSize) -> ProposedSize {
        func offer(_ fixed: Int?, _ minimum: Int?, _ maximum: Int?, _ proposed: Int) -> Int {
            if let fixed { return fixed }
            var length = proposed
            if let maximum { length = min(length, maximum) }
            if let minimum { length = max(length, minimum) }
            return length
        }
        return proposal.offering(
            width: offer(width, minWidth, maxWidth, proposal.width),
            height: offer(height, minHeight, maxHeight, proposal.height),
            axis: proposal.axis
        )
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        guard !proposal.isTooDeep else { return .zero }
        let offered = childProposal(proposal)
        var measured: Size?
        func child() -> Size {
            if let measured { return measured }
            let size = content.sizeThatFits(offered)
            measured = size
            return size
        }
        return Size(
            width: Self.length(fixed: width, minimum: minWidth, maximum: maxWidth, proposed: proposal.width) { child().width },
            height: Self.length(fixed: height, minimum: minHeight, maximum: maxHeight, proposed: proposal.height) { child().height }
        )
    }

    /// The frame takes its own size at the top left of `rect` (cut to
    /// it); the child sits in it by `alignment`.
    public func draw(in rect: Rect, canvas: inout Canvas) {
        let own = sizeThatFits(ProposedSize(rect.size))
        let frame = Rect(origin: rect.origin, size: Size(width: min(own.width, rect.size.width), height: min(own.height, rect.size.height)))
        let size = content.sizeThatFits(childProposal(ProposedSize(frame.size)))
        canvas.draw(content, in: alignment.rect(of: size, in: frame))
    }
}

extension View {
    /// The view in bold.
    public func bold() -> StyledView<Self> { StyledView(content: self, style: Style(attributes: .bold)) }
    /// The view dimmed (faint).
    public func dim() -> StyledView<Self> { StyledView(content: self, style: Style(attributes: .dim)) }
    /// The view in italics (where the terminal has them).
    public func italic() -> StyledView<Self> { StyledView(content: self, style: Style(attributes: .italic)) }
    /// The view underlined.
    public func underline() -> StyledView<Self> { StyledView(content: self, style: Style(attributes: .underline)) }
    /// The view with foreground and background swapped.
    public func reverse() -> StyledView<Self> { StyledView(content: self, style: Style(attributes: .reverse)) }
    /// The view's text (and borders) in `color`.
    public func foreground(_ color: Color) -> StyledView<Self> { StyledView(content: self, style: Style(foreground: color)) }
    /// The view drawn in `style` too (colours set there win; attributes
    /// add up).
    public func style(_ style: Style) -> StyledView<Self> { StyledView(content: self, style: style) }

    /// The view's whole rectangle filled with `color`, which what it
    /// draws inherits.
    ///
    /// ```swift
    /// Text(" Notes ").bold().frame(maxWidth: .max).background(.blue)
    /// ```
    public func background(_ color: Color) -> BackgroundView<Self> { BackgroundView(content: self, color: color) }

    /// `length` blank cells on every side (1 by default).
    public func padding(_ length: Int = 1) -> PaddedView<Self> { PaddedView(content: self, insets: EdgeInsets(length)) }

    /// Blank cells around the view as `insets` says.
    ///
    /// ```swift
    /// Text("hi").padding(EdgeInsets(horizontal: 2))
    /// ```
    public func padding(_ insets: EdgeInsets) -> PaddedView<Self> { PaddedView(content: self, insets: insets) }

    /// The view in a frame `width` columns wide and `height` rows high
    /// (either left to the view when `nil`), placed in it by `alignment`
    /// and cut to it. Negative sizes count as zero.
    ///
    /// ```swift
    /// Text("name").frame(width: 12)      // a 12-column cell of a row
    /// ```
    public func frame(width: Int? = nil, height: Int? = nil, alignment: Alignment = .topLeading) -> FrameView<Self> {
        FrameView(content: self, width: width, height: height, alignment: alignment)
    }

    /// The view in a frame that grows to what it is offered up to
    /// `maxWidth` and `maxHeight` (`.max`: all of it) and is at least
    /// `minWidth` and `minHeight`.
    ///
    /// ```swift
    /// Text("Title").frame(maxWidth: .max).background(.blue)   // a full-width bar
    /// ```
    public func frame(minWidth: Int? = nil, maxWidth: Int? = nil, minHeight: Int? = nil, maxHeight: Int? = nil, alignment: Alignment = .topLeading) -> FrameView<Self> {
        FrameView(content: self, minWidth: minWidth, maxWidth: maxWidth, minHeight: minHeight, maxHeight: maxHeight, alignment: alignment)
    }
}
