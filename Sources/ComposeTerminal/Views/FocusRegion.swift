/// Names a focusable view across frames: the label path of the component
/// that drew it and a name unique within that component's view (the
/// view's kind and place, `textField.0`, unless it was given one).
public struct FocusID: Hashable, Sendable, CustomStringConvertible {
    /// The component's label path (`app.notes`), or `nil` for a view drawn
    /// outside any component.
    public var component: String?
    /// The view's name within the component.
    public var name: String

    /// An identifier from its parts.
    public init(component: String?, name: String) {
        self.component = component
        self.name = name
    }

    public var description: String { (component.map { $0 + ":" } ?? "") + name }
}

/// A focusable view as drawn in one frame: where it is, which component
/// drew it, and where it wants the cursor. The runtime moves the focus
/// among these (Tab, arrows) and routes keys to the focused one's
/// component.
@MainActor
public struct FocusRegion {
    /// What kind of view it is.
    public enum Kind: String, Hashable, Sendable {
        /// A ``TextField``.
        case textField
        /// A ``List``.
        case list
        /// A ``Table``.
        case table
    }

    /// Its name across frames.
    public var id: FocusID
    /// What kind of view it is.
    public var kind: Kind
    /// The part of the screen it takes (its visible part).
    public var rect: Rect
    /// The component that drew it, or `nil` outside any.
    public var component: ComponentNode?
    /// Where the cursor goes while it has the focus (a text field's
    /// insertion point), or `nil` for none.
    public var cursor: Point?
}

/// A component whose view was drawn, and the part of the screen it took
/// (its visible part). Mouse clicks and focus map back to components
/// through these.
@MainActor
public struct ComponentRegion {
    /// The component.
    public var node: ComponentNode
    /// The part of the screen its view took.
    public var rect: Rect
}
