extension Diagnostic.Code {
    /// A paste longer than ``InputDecoder/Limits/maximumPasteBytes`` was
    /// delivered cut to that limit.
    public static let terminalPasteTruncated = Diagnostic.Code(rawValue: "terminalPasteTruncated")
    /// An escape sequence longer than
    /// ``InputDecoder/Limits/maximumSequenceBytes`` was dropped.
    public static let terminalSequenceTooLong = Diagnostic.Code(rawValue: "terminalSequenceTooLong")
    /// The terminal could not be put in raw mode or written: the app goes
    /// on without it (as when standard output is not a terminal).
    public static let terminalUnavailable = Diagnostic.Code(rawValue: "terminalUnavailable")
}
