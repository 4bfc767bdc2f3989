/// What a terminal app turns on while it runs, each undone when the
/// terminal is given back.
///
/// ```swift
/// TerminalModes.standard.union(.mouse)   // clicks and the wheel too
/// ```
public struct TerminalModes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The alternate screen (`ESC[?1049h`): the app draws on a screen of
    /// its own, and the shell's scrollback comes back as it was.
    public static let alternateScreen = TerminalModes(rawValue: 1)
    /// The cursor hidden (`ESC[?25l`).
    public static let hiddenCursor = TerminalModes(rawValue: 2)
    /// Bracketed paste (`ESC[?2004h`): a paste arrives as one
    /// ``TerminalInput/paste(_:)``, not as keys.
    public static let bracketedPaste = TerminalModes(rawValue: 4)
    /// Mouse presses, releases, drags and the wheel, as SGR reports
    /// (`ESC[?1000h`, `ESC[?1002h`, `ESC[?1006h`). Off by default: while
    /// on, the terminal's own text selection needs Shift.
    public static let mouse = TerminalModes(rawValue: 8)
    /// Mouse moves with no button down as well (`ESC[?1003h`; implies
    /// ``mouse``).
    public static let mouseMotion = TerminalModes(rawValue: 16)

    /// The alternate screen, a hidden cursor, bracketed paste.
    public static let standard: TerminalModes = [.alternateScreen, .hiddenCursor, .bracketedPaste]

    /// The bytes that turn these modes on.
    public var enterSequence: [UInt8] {
        var text = ""
        if contains(.alternateScreen) { text += "\u{1B}[?1049h" }
        if contains(.hiddenCursor) { text += "\u{1B}[?25l" }
        if contains(.bracketedPaste) { text += "\u{1B}[?2004h" }
        if contains(.mouse) || contains(.mouseMotion) { text += "\u{1B}[?1000h\u{1B}[?1002h" }
        if contains(.mouseMotion) { text += "\u{1B}[?1003h" }
        if contains(.mouse) || contains(.mouseMotion) { text += "\u{1B}[?1006h" }
        return Array(text.utf8)
    }

    /// The bytes that turn them off again, in the reverse order, after
    /// resetting colours and styles (`ESC[0m`), so the shell gets the
    /// terminal back as it was.
    public var leaveSequence: [UInt8] {
        var text = "\u{1B}[0m"
        if contains(.mouse) || contains(.mouseMotion) { text += "\u{1B}[?1006l" }
        if contains(.mouseMotion) { text += "\u{1B}[?1003l" }
        if contains(.mouse) || contains(.mouseMotion) { text += "\u{1B}[?1002l\u{1B}[?1000l" }
        if contains(.bracketedPaste) { text += "\u{1B}[?2004l" }
        if contains(.hiddenCursor) { text += "\u{1B}[?25h" }
        if contains(.alternateScreen) { text += "\u{1B}[?1049l" }
        return Array(text.utf8)
    }
}
