/// A key of the keyboard, as the terminal reports it.
///
/// Printable keys are ``character(_:)`` (each Unicode scalar typed is one
/// key); the others are named. Modifiers ride beside it in ``KeyEvent``.
public enum Key: Hashable, Sendable {
    /// A printable character (for `Ctrl+C` it is `"c"`, with
    /// ``KeyModifiers/control``).
    case character(Character)
    /// Enter (carriage return; a line feed too).
    case enter
    /// Tab.
    case tab
    /// Shift+Tab, which terminals send as a key of its own.
    case backTab
    /// Backspace (`0x7F` or `0x08`).
    case backspace
    /// Escape, alone (see ``InputDecoder/flush()``).
    case escape
    /// The arrow up.
    case up
    /// The arrow down.
    case down
    /// The arrow left.
    case left
    /// The arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Insert.
    case insert
    /// Delete (forward).
    case delete
    /// A function key, `F1` being `function(1)`.
    case function(Int)
}

extension Key: CustomStringConvertible {
    public var description: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "BackTab"
        case .backspace: "Backspace"
        case .escape: "Escape"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PageUp"
        case .pageDown: "PageDown"
        case .insert: "Insert"
        case .delete: "Delete"
        case .function(let number): "F\(number)"
        }
    }
}
