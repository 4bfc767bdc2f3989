/// Builds views from a closure's statements: each view is a child, `if`,
/// `if let`, `switch` and `for … in` choose and repeat them.
///
/// ```swift
/// VStack {
///     Text("Groceries").bold()
///     if items.isEmpty {
///         Text("Nothing to buy").dim()
///     }
///     for item in items {
///         Text("• \(item)")
///     }
/// }
/// ```
///
/// The result is a ``Group`` whose children a stack or a list takes as its
/// own: a ``Group`` or ``ForEach`` inside a builder adds its children, not
/// itself.
@resultBuilder
@MainActor
public enum ViewBuilder {
    /// A view as a child (a ``Group``'s or ``ForEach``'s children, one by one).
    public static func buildExpression(_ view: some View) -> [any View] {
        if let list = view as? any ViewList { return list.children }
        return [view]
    }

    /// The children of consecutive statements, in order.
    public static func buildBlock(_ parts: [any View]...) -> [any View] {
        parts.flatMap { $0 }
    }

    /// The children of an `if` without `else`, or none.
    public static func buildOptional(_ part: [any View]?) -> [any View] {
        part ?? []
    }

    /// The children of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [any View]) -> [any View] {
        part
    }

    /// The children of the other branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [any View]) -> [any View] {
        part
    }

    /// The children of every pass of a `for … in` loop.
    public static func buildArray(_ parts: [[any View]]) -> [any View] {
        parts.flatMap { $0 }
    }

    /// The children of an `if #available` branch.
    public static func buildLimitedAvailability(_ part: [any View]) -> [any View] {
        part
    }

    /// The children as one ``Group``.
    public static func buildFinalResult(_ children: [any View]) -> Group {
        Group(children: children)
    }
}

/// A view that stands for several: stacks, lists and builders take its
/// children as their own.
@MainActor
protocol ViewList {
    var children: [any View] { get }
}
