/// What the user did at the terminal, decoded from its bytes by
/// ``InputDecoder``: a key, a paste, or a mouse event.
public enum TerminalInput: Hashable, Sendable {
    /// A key with its modifiers.
    case key(KeyEvent)
    /// Text pasted in one piece (bracketed paste), line breaks as `"\n"`.
    case paste(String)
    /// A mouse event (when mouse reporting is on).
    case mouse(MouseEvent)
}
