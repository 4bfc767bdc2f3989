/// The modifier keys held with a key or a mouse event.
///
/// Terminals report Shift only where it changes nothing else (Shift+Up,
/// not Shift+a, which arrives as `"A"`); Meta arrives as ``alt``.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1)
    /// Alt (Option, Meta).
    public static let alt = KeyModifiers(rawValue: 2)
    /// Control.
    public static let control = KeyModifiers(rawValue: 4)

    /// The modifiers of xterm's parameter (`ESC[1;5A`: 5, Control): the
    /// parameter minus one is a bit set of Shift 1, Alt 2, Control 4 and
    /// Meta 8 (taken as Alt).
    init(xtermParameter parameter: Int) {
        let bits = max(0, parameter - 1)
        var modifiers: KeyModifiers = []
        if bits & 1 != 0 { modifiers.insert(.shift) }
        if bits & 2 != 0 || bits & 8 != 0 { modifiers.insert(.alt) }
        if bits & 4 != 0 { modifiers.insert(.control) }
        self = modifiers
    }
}

extension KeyModifiers: CustomStringConvertible {
    /// `Ctrl+Alt+Shift+` order, as help lines show keys.
    public var description: String {
        var parts: [String] = []
        if contains(.control) { parts.append("Ctrl") }
        if contains(.alt) { parts.append("Alt") }
        if contains(.shift) { parts.append("Shift") }
        return parts.joined(separator: "+")
    }
}
