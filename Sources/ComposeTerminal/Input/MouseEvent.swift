/// A mouse event, reported once an app turned mouse reporting on
/// (``TerminalModes/mouse``): a press, a release, a drag, a move or a
/// wheel step, at a cell.
public struct MouseEvent: Hashable, Sendable {
    /// A mouse button.
    public enum Button: Hashable, Sendable {
        /// The primary button.
        case left
        /// The middle button (or a pressed wheel).
        case middle
        /// The secondary button.
        case right
        /// Buttons past the third (8 and up as terminals number them).
        case other(Int)
    }

    /// What the mouse did.
    public enum Action: Hashable, Sendable {
        /// A button went down.
        case press(Button)
        /// A button went up.
        case release(Button)
        /// The mouse moved with a button down.
        case drag(Button)
        /// The mouse moved with no button down (reported only in the
        /// all-motion mode).
        case move
        /// The wheel turned up (away from the user).
        case wheelUp
        /// The wheel turned down.
        case wheelDown
        /// The wheel (or a tilt) went left.
        case wheelLeft
        /// The wheel (or a tilt) went right.
        case wheelRight
    }

    /// What the mouse did.
    public var action: Action
    /// The cell, from the top left (0, 0).
    public var position: Point
    /// The modifiers held.
    public var modifiers: KeyModifiers

    /// An event.
    public init(_ action: Action, at position: Point, modifiers: KeyModifiers = []) {
        self.action = action
        self.position = position
        self.modifiers = modifiers
    }
}
