extension KeyEvent {
    /// The bytes xterm sends for this key (its default settings: cursor
    /// keys in normal mode, Backspace as DEL, Alt as an Escape prefix),
    /// which ``InputDecoder`` decodes back into this very event; `nil` for
    /// an event no such terminal sends in a form of its own.
    ///
    /// ```swift
    /// KeyEvent("q").bytes                     // [0x71]
    /// KeyEvent.up.with(.control).bytes        // ESC [ 1 ; 5 A
    /// KeyEvent.ctrl("c").bytes                // [0x03]
    /// KeyEvent(.character("a"), modifiers: .shift).bytes  // nil: Shift+a arrives as "A"
    /// ```
    ///
    /// Encoded:
    /// - a character of one Unicode scalar, not a control, as its UTF-8;
    ///   with Alt, after an Escape;
    /// - Control with a letter other than h, i, j and m, with Space, or
    ///   with `\`, `]`, `^`, `_` as the control byte (Control+Alt: after an
    ///   Escape);
    /// - Enter (`\r`), Tab, Backspace (DEL), each also with Alt; Escape
    ///   and Shift+Tab (``Key/backTab``) alone;
    /// - the arrows, Home, End, Insert, Delete, Page up and down, and F1
    ///   to F20, with any modifiers (xterm's `ESC [ 1 ; m A` and
    ///   `ESC [ n ; m ~` forms).
    ///
    /// Not encoded (`nil`), because a terminal sends them as another key
    /// or not at all: Shift with a character (Shift+a is `"A"`, so
    /// Control+Shift+a is Control+a), a capital letter with Control;
    /// Control with h, i, j or m (Backspace, Tab, Enter, Enter) or with `[`
    /// (Escape), with a digit or another symbol; a character that is a
    /// control or of several scalars (a combining accent, a flag: each
    /// scalar is a key of its own); Enter, Tab and Backspace with Control
    /// or Shift; Escape and Shift+Tab with a modifier; `F0` and past `F20`.
    ///
    /// An Escape, Alt+`[` and Alt+`O` are complete only once no byte
    /// follows for a moment: a decoder holds them until its
    /// ``InputDecoder/flush()``.
    public var bytes: [UInt8]? {
        switch key {
        case .character(let character):
            return Self.characterBytes(character, modifiers: modifiers)
        case .enter:
            return Self.withAlt(modifiers, [0x0D])
        case .tab:
            return Self.withAlt(modifiers, [0x09])
        case .backspace:
            return Self.withAlt(modifiers, [0x7F])
        case .escape:
            return modifiers.isEmpty ? [0x1B] : nil
        case .backTab:
            return modifiers.isEmpty ? Self.csi("Z") : nil
        case .up: return Self.cursorKey("A", modifiers)
        case .down: return Self.cursorKey("B", modifiers)
        case .right: return Self.cursorKey("C", modifiers)
        case .left: return Self.cursorKey("D", modifiers)
        case .home: return Self.cursorKey("H", modifiers)
        case .end: return Self.cursorKey("F", modifiers)
        case .insert: return Self.tildeKey(2, modifiers)
        case .delete: return Self.tildeKey(3, modifiers)
        case .pageUp: return Self.tildeKey(5, modifiers)
        case .pageDown: return Self.tildeKey(6, modifiers)
        case .function(let number):
            return Self.functionKey(number, modifiers)
        }
    }

    /// `bytes` as they are without modifiers, after an Escape with Alt
    /// alone; `nil` with any other modifier.
    private static func withAlt(_ modifiers: KeyModifiers, _ bytes: [UInt8]) -> [UInt8]? {
        switch modifiers {
        case []: bytes
        case .alt: [0x1B] + bytes
        default: nil
        }
    }

    private static func characterBytes(_ character: Character, modifiers: KeyModifiers) -> [UInt8]? {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else { return nil }
        guard !modifiers.contains(.shift) else { return nil }
        let plain: [UInt8]
        if modifiers.contains(.control) {
            guard let control = controlByte(scalar) else { return nil }
            plain = [control]
        } else {
            guard scalar.value >= 0x20, scalar.value != 0x7F, !(0x80...0x9F).contains(scalar.value) else { return nil }
            plain = Array(String(character).utf8)
        }
        return modifiers.contains(.alt) ? [0x1B] + plain : plain
    }

    /// The byte Control turns `scalar` into, where the decoder reads it
    /// back as Control and that character.
    private static func controlByte(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case " ": 0x00
        // h, i, j and m are Backspace, Tab, Enter and Enter.
        case "h", "i", "j", "m": nil
        case "a"..."z": UInt8(scalar.value) - 0x60
        case "\\", "]", "^", "_": UInt8(scalar.value) - 0x40
        default: nil
        }
    }

    /// `ESC [ final`, or `ESC [ 1 ; m final` with modifiers.
    private static func cursorKey(_ final: Unicode.Scalar, _ modifiers: KeyModifiers) -> [UInt8] {
        modifiers.isEmpty ? csi(final) : csi(final, parameters: "1;\(xtermParameter(modifiers))")
    }

    /// `ESC [ n ~`, or `ESC [ n ; m ~` with modifiers.
    private static func tildeKey(_ number: Int, _ modifiers: KeyModifiers) -> [UInt8] {
        csi("~", parameters: modifiers.isEmpty ? "\(number)" : "\(number);\(xtermParameter(modifiers))")
    }

    /// F1 to F4 as `ESC O P`..`S` (`ESC [ 1 ; m P` with modifiers), the
    /// others as `ESC [ n ~` in VT220's numbering (the gaps at 16, 22,
    /// 27 and 30 skipped).
    private static func functionKey(_ number: Int, _ modifiers: KeyModifiers) -> [UInt8]? {
        switch number {
        case 1...4:
            let final = Unicode.Scalar(UInt8(ascii: "P") + UInt8(number - 1))
            return modifiers.isEmpty ? [0x1B, UInt8(ascii: "O"), UInt8(final.value)] : cursorKey(final, modifiers)
        case 5: return tildeKey(15, modifiers)
        case 6...10: return tildeKey(number + 11, modifiers)
        case 11...14: return tildeKey(number + 12, modifiers)
        case 15, 16: return tildeKey(number + 13, modifiers)
        case 17...20: return tildeKey(number + 14, modifiers)
        default: return nil
        }
    }

    /// xterm's modifier parameter: 1 plus Shift 1, Alt 2, Control 4.
    static func xtermParameter(_ modifiers: KeyModifiers) -> Int {
        var bits = 0
        if modifiers.contains(.shift) { bits |= 1 }
        if modifiers.contains(.alt) { bits |= 2 }
        if modifiers.contains(.control) { bits |= 4 }
        return bits + 1
    }

    private static func csi(_ final: Unicode.Scalar, parameters: String = "") -> [UInt8] {
        [0x1B, UInt8(ascii: "[")] + Array(parameters.utf8) + [UInt8(final.value)]
    }
}
