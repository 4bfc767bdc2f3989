/// One line listing the keys that do something now: the key bindings of
/// the components on the screen (``ViewComponent/keyBindings``), the
/// focused one's first, each as its key and its help (`q quit`), with
/// the runtime's own (Tab between fields, Ctrl+C to quit) when they
/// apply. What does not fit is cut with "…".
///
/// ```swift
/// VStack {
///     ComponentView(notes)
///     Spacer()
///     HelpLine()
/// }
/// ```
public struct HelpLine: PrimitiveView {
    let keyStyle: Style
    let helpStyle: Style

    /// A help line drawing keys in `keyStyle` (bold) and what they do in
    /// `helpStyle` (dim).
    public init(keyStyle: Style = Style(attributes: .bold), helpStyle: Style = Style(attributes: .dim)) {
        self.keyStyle = keyStyle
        self.helpStyle = helpStyle
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width, height: 1)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        guard !rect.isEmpty else { return }
        var text = Text("")
        for (index, entry) in canvas.keyHelp.enumerated() {
            if index > 0 { text = text + Text("  ") }
            text = text + Text(entry.keys).style(keyStyle) + Text(" " + entry.help).style(helpStyle)
        }
        canvas.draw(text, in: Rect(x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: 1))
    }
}

/// One entry of a ``HelpLine``: keys and what they do.
public struct KeyHelp: Hashable, Sendable {
    /// The keys, as shown (`q`, `Ctrl+N`, `Tab`).
    public var keys: String
    /// What they do.
    public var help: String

    /// An entry from its parts.
    public init(keys: String, help: String) {
        self.keys = keys
        self.help = help
    }
}
