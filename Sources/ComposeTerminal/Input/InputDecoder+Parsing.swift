/// The parser of one unit of input (a character, a control, a sequence)
/// at the start of the held bytes.
extension InputDecoder {
    enum Step {
        /// A unit of `count` bytes, giving `event` (or nothing: a sequence
        /// the decoder does not know).
        case event(TerminalInput?, count: Int)
        /// `ESC [ 2 0 0 ~` (`count` bytes): a paste begins.
        case beginPaste(count: Int)
        /// The unit is not complete yet.
        case incomplete
    }

    static let escape: UInt8 = 0x1B

    static func parse(_ bytes: ArraySlice<UInt8>, final: Bool) -> Step {
        let start = bytes.startIndex
        guard bytes[start] == escape else { return parsePlain(bytes, final: final) }
        guard bytes.count >= 2 else { return final ? key(.escape, count: 1) : .incomplete }
        switch bytes[start + 1] {
        case UInt8(ascii: "["):
            return parseCSI(bytes, final: final)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else {
                return final ? .event(.key(.alt("O")), count: 2) : .incomplete
            }
            guard let key = ss3Key(bytes[start + 2]) else { return .event(.key(.alt("O")), count: 2) }
            return self.key(key, count: 3)
        case escape:
            // Escape, then whatever the second Escape starts.
            return key(.escape, count: 1)
        default:
            // Alt: Escape before a character or a control.
            switch parsePlain(bytes.dropFirst(), final: final) {
            case .event(.key(let event)?, let count):
                return .event(.key(event.with(.alt)), count: count + 1)
            case .event(let other, let count):
                return .event(other, count: count + 1)
            case .incomplete:
                return .incomplete
            case .beginPaste:
                // parsePlain never begins a paste.
                return .incomplete
            }
        }
    }

    private static func key(_ key: Key, modifiers: KeyModifiers = [], count: Int) -> Step {
        .event(.key(KeyEvent(key, modifiers: modifiers)), count: count)
    }

    // MARK: Characters and controls

    /// A byte that is not Escape: a control, ASCII, or UTF-8.
    static func parsePlain(_ bytes: ArraySlice<UInt8>, final: Bool) -> Step {
        let byte = bytes[bytes.startIndex]
        switch byte {
        case 0x0D, 0x0A: return key(.enter, count: 1)
        case 0x09: return key(.tab, count: 1)
        case 0x7F, 0x08: return key(.backspace, count: 1)
        case 0x00: return key(.character(" "), modifiers: .control, count: 1)
        case 0x01...0x1A:
            return key(.character(Character(Unicode.Scalar(byte + 0x60))), modifiers: .control, count: 1)
        case 0x1B:
            // Only after an Alt's Escape: Escape itself.
            return key(.escape, count: 1)
        case 0x1C...0x1F:
            return key(.character(Character(Unicode.Scalar(byte + 0x40))), modifiers: .control, count: 1)
        case 0x20...0x7E:
            return key(.character(Character(Unicode.Scalar(byte))), count: 1)
        default:
            return parseUTF8(bytes, final: final)
        }
    }

    /// One UTF-8 character, or U+FFFD for a maximal invalid subpart.
    static func parseUTF8(_ bytes: ArraySlice<UInt8>, final: Bool) -> Step {
        let start = bytes.startIndex
        let lead = bytes[start]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return replacement(count: 1)
        }
        var scalar = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            guard start + offset < bytes.endIndex else {
                return final ? replacement(count: offset) : .incomplete
            }
            let byte = bytes[start + offset]
            guard (offset == 1 ? second : 0x80...0xBF).contains(byte) else {
                return replacement(count: offset)
            }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        guard let value = Unicode.Scalar(scalar) else { return replacement(count: length) }
        return key(.character(Character(value)), count: length)
    }

    private static func replacement(count: Int) -> Step {
        key(.character("\u{FFFD}"), count: count)
    }

    // MARK: Sequences

    static func ss3Key(_ byte: UInt8) -> Key? {
        switch byte {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
    }

    /// `ESC [`, parameter and intermediate bytes (0x20–0x3F), a final
    /// byte (0x40–0x7E). A byte outside those ends a malformed sequence,
    /// which is dropped (the byte is decoded afresh).
    static func parseCSI(_ bytes: ArraySlice<UInt8>, final: Bool) -> Step {
        let start = bytes.startIndex
        var index = start + 2
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case 0x20...0x3F:
                index += 1
            case 0x40...0x7E:
                let count = index - start + 1
                let parameters = bytes[(start + 2)..<index]
                if byte == UInt8(ascii: "~"), parameters.elementsEqual([0x32, 0x30, 0x30]) {
                    return .beginPaste(count: count)
                }
                return .event(csiEvent(parameters, final: byte), count: count)
            default:
                return .event(nil, count: index - start)
            }
        }
        guard final else { return .incomplete }
        return bytes.count == 2 ? .event(.key(.alt("[")), count: 2) : .event(nil, count: bytes.count)
    }

    /// The numbers of `1;5` (a missing one is nil; `a:b` counts as `a`),
    /// each at most 1,000,000.
    static func numbers(_ parameters: ArraySlice<UInt8>) -> [Int?] {
        var numbers: [Int?] = []
        var current: Int?
        var inSubparameter = false
        for byte in parameters {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard !inSubparameter else { continue }
                current = min(1_000_000, (current ?? 0) * 10 + Int(byte - 0x30))
            case UInt8(ascii: ";"):
                numbers.append(current)
                current = nil
                inSubparameter = false
            case UInt8(ascii: ":"):
                inSubparameter = true
            default:
                continue
            }
        }
        numbers.append(current)
        return numbers
    }

    static func csiEvent(_ parameters: ArraySlice<UInt8>, final: UInt8) -> TerminalInput? {
        if let first = parameters.first {
            if first == UInt8(ascii: "<") { return sgrMouse(parameters.dropFirst(), final: final) }
            // Private replies (`ESC [ ? ...`) and the like: not input.
            if (0x3C...0x3F).contains(first) { return nil }
        }
        let numbers = numbers(parameters)
        let modifiers = numbers.count >= 2 ? KeyModifiers(xtermParameter: numbers[1] ?? 1) : []
        let key: Key
        switch final {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = .right
        case UInt8(ascii: "D"): key = .left
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "P"): key = .function(1)
        case UInt8(ascii: "Q"): key = .function(2)
        case UInt8(ascii: "R"): key = .function(3)
        case UInt8(ascii: "S"): key = .function(4)
        case UInt8(ascii: "Z"): key = .backTab
        case UInt8(ascii: "~"):
            guard let tilde = tildeKey(numbers[0] ?? 0) else { return nil }
            key = tilde
        case UInt8(ascii: "u"):
            // The fixterms / kitty form: `ESC [ code ; modifiers u`.
            guard let code = numbers[0], let unicode = unicodeKey(code) else { return nil }
            key = unicode
        default:
            return nil
        }
        return .key(KeyEvent(key, modifiers: modifiers))
    }

    /// The keys of `ESC [ n ~` (VT220 and xterm numbering).
    static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23...26: .function(number - 12)
        case 28, 29: .function(number - 13)
        case 31...34: .function(number - 14)
        default: nil
        }
    }

    static func unicodeKey(_ code: Int) -> Key? {
        switch code {
        case 9: return .tab
        case 13: return .enter
        case 27: return .escape
        case 127, 8: return .backspace
        default:
            guard code >= 0x20, let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// `ESC [ < b ; x ; y M` (press, motion) or `m` (release).
    static func sgrMouse(_ parameters: ArraySlice<UInt8>, final: UInt8) -> TerminalInput? {
        guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
        let numbers = numbers(parameters)
        guard numbers.count == 3, let code = numbers[0], let x = numbers[1], let y = numbers[2] else { return nil }
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let low = code & 3
        let position = Point(x: max(0, x - 1), y: max(0, y - 1))
        let action: MouseEvent.Action
        if code & 64 != 0 {
            action = [.wheelUp, .wheelDown, .wheelLeft, .wheelRight][low]
        } else {
            let button: MouseEvent.Button? = code & 128 != 0 ? .other(8 + low) : [.left, .middle, .right, nil][low]
            if code & 32 != 0 {
                action = button.map { .drag($0) } ?? .move
            } else {
                guard let button else { return nil }
                action = final == UInt8(ascii: "m") ? .release(button) : .press(button)
            }
        }
        return .mouse(MouseEvent(action, at: position, modifiers: modifiers))
    }
}
