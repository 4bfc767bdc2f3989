import ComposeTerminal
import PropertyBased
import Testing

/// `KeyEvent.bytes` and `MouseEvent.bytes`: what a terminal sends, which
/// the decoder turns back into the same event; the events no terminal
/// sends in a form of their own are `nil`, exactly those documented.
@Suite struct KeyEventBytesTests {
    /// Decodes `bytes` whole, then flushes (a lone Escape's delay passed).
    static func decode(_ bytes: [UInt8]) -> [TerminalInput] {
        var decoder = InputDecoder()
        return decoder.decode(bytes) + decoder.flush()
    }

    static let namedKeys: [Key] = [
        .enter, .tab, .backTab, .backspace, .escape, .up, .down, .left, .right,
        .home, .end, .pageUp, .pageDown, .insert, .delete,
    ]

    static let allModifiers: [KeyModifiers] = (0..<8).map { KeyModifiers(rawValue: UInt8($0)) }

    /// A key from `selector`: a named key, a function key (F0 to F24), an
    /// ASCII character or any scalar, or a character of two scalars.
    static func key(selector: Int, scalar: Int, second: Int) -> Key {
        switch selector {
        case 0..<namedKeys.count:
            return namedKeys[selector]
        case namedKeys.count..<(namedKeys.count + 5):
            return .function(scalar % 25)
        case (namedKeys.count + 5)..<(namedKeys.count + 25):
            return .character(Character(Unicode.Scalar(UInt8(scalar % 128))))
        case (namedKeys.count + 25)..<(namedKeys.count + 35):
            return .character(Character(Unicode.Scalar(UInt32(scalar)) ?? "\u{FFFD}"))
        default:
            var text = String(Unicode.Scalar(UInt8(ascii: "a") + UInt8(scalar % 26)))
            text.unicodeScalars.append(Unicode.Scalar(UInt32(0x300 + second % 0x70)) ?? "\u{301}")
            return .character(Character(text))
        }
    }

    @Test func everyEncodableEventDecodesBackToItself() async {
        let selectors = Gen.int(in: 0...(Self.namedKeys.count + 36))
        let scalars = Gen.int(in: 0...0x10FFFF)
        let modifiers = Gen.int(in: 0...7)
        await propertyCheck(count: 4000, input: selectors, scalars, modifiers, Gen.int(in: 0...1000)) { selector, scalar, bits, second in
            let event = KeyEvent(Self.key(selector: selector, scalar: scalar, second: second), modifiers: KeyModifiers(rawValue: UInt8(bits)))
            guard let bytes = event.bytes else { return }
            #expect(Self.decode(bytes) == [.key(event)], "\(event): \(bytes)")
        }
    }

    @Test func theKeysOfTheTerminalAreEncodedWithEveryModifier() {
        let sequences: [Key] = [.up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete]
            + (1...20).map { Key.function($0) }
        for key in sequences {
            for modifiers in Self.allModifiers {
                let event = KeyEvent(key, modifiers: modifiers)
                let bytes = event.bytes
                #expect(bytes != nil, "\(event)")
                #expect(bytes.map(Self.decode) == [.key(event)], "\(event)")
            }
        }
        for character in "abcdefgklnopqrstuvwxyz \\]^_" {
            for modifiers: KeyModifiers in [.control, [.control, .alt]] {
                let event = KeyEvent(.character(character), modifiers: modifiers)
                #expect(event.bytes.map(Self.decode) == [.key(event)], "\(event)")
            }
        }
        for character in "aZ0~ é日😀\u{FFFD}" {
            for modifiers: KeyModifiers in [[], .alt] {
                let event = KeyEvent(.character(character), modifiers: modifiers)
                #expect(event.bytes.map(Self.decode) == [.key(event)], "\(event)")
            }
        }
        for key: Key in [.enter, .tab, .backspace] {
            #expect(KeyEvent(key).bytes.map(Self.decode) == [.key(KeyEvent(key))])
            #expect(KeyEvent(key, modifiers: .alt).bytes.map(Self.decode) == [.key(KeyEvent(key, modifiers: .alt))])
        }
        #expect(KeyEvent.escape.bytes.map(Self.decode) == [.key(.escape)])
        #expect(KeyEvent.backTab.bytes.map(Self.decode) == [.key(.backTab)])
    }

    @Test func theBytesAreXtermsOwn() {
        #expect(KeyEvent("q").bytes == [0x71])
        #expect(KeyEvent("日").bytes == Array("日".utf8))
        #expect(KeyEvent.ctrl("c").bytes == [0x03])
        #expect(KeyEvent.ctrl(" ").bytes == [0x00])
        #expect(KeyEvent.alt("x").bytes == [0x1B, 0x78])
        #expect(KeyEvent.enter.bytes == [0x0D])
        #expect(KeyEvent.backspace.bytes == [0x7F])
        #expect(KeyEvent.up.bytes == Array("\u{1B}[A".utf8))
        #expect(KeyEvent.up.with(.control).bytes == Array("\u{1B}[1;5A".utf8))
        #expect(KeyEvent.delete.with([.shift, .alt]).bytes == Array("\u{1B}[3;4~".utf8))
        #expect(KeyEvent.function(1).bytes == Array("\u{1B}OP".utf8))
        #expect(KeyEvent.function(1).with(.shift).bytes == Array("\u{1B}[1;2P".utf8))
        #expect(KeyEvent.function(5).bytes == Array("\u{1B}[15~".utf8))
        #expect(KeyEvent.function(12).bytes == Array("\u{1B}[24~".utf8))
        #expect(KeyEvent.backTab.bytes == Array("\u{1B}[Z".utf8))
    }

    @Test func eventsNoTerminalSendsApartAreNotEncoded() {
        let unencodable: [KeyEvent] = [
            // Shift with a character: it arrives as the shifted character.
            KeyEvent(.character("a"), modifiers: .shift), KeyEvent(.character("A"), modifiers: .shift),
            KeyEvent(.character("a"), modifiers: [.control, .shift]), KeyEvent(.character("A"), modifiers: .control),
            // Control letters that are other keys, and symbols without a control byte.
            .ctrl("h"), .ctrl("i"), .ctrl("j"), .ctrl("m"), .ctrl("["), .ctrl("1"), .ctrl("/"),
            // Controls and characters of several scalars.
            KeyEvent("\u{7}"), KeyEvent("\u{7F}"), KeyEvent("\u{85}"), KeyEvent("e\u{301}"), KeyEvent("🇫🇷"),
            // Enter, Tab, Backspace with Control or Shift; Escape and Shift+Tab with any.
            KeyEvent.enter.with(.control), KeyEvent.tab.with(.shift), KeyEvent.backspace.with(.control),
            KeyEvent.escape.with(.alt), KeyEvent.backTab.with(.control),
            // Function keys no terminal has.
            .function(0), .function(21), .function(-3),
        ]
        for event in unencodable {
            #expect(event.bytes == nil, "\(event)")
        }
    }

    @Test func everyMouseEventEncodesAndDecodesBackToItself() async {
        let actions: [MouseEvent.Action] = [
            .press(.left), .press(.middle), .press(.right), .press(.other(8)), .press(.other(11)),
            .release(.left), .release(.right), .release(.other(9)), .drag(.left), .drag(.middle), .drag(.other(10)),
            .move, .wheelUp, .wheelDown, .wheelLeft, .wheelRight,
        ]
        await propertyCheck(count: 1000, input: Gen.int(in: 0...(actions.count - 1)), Gen.int(in: 0...500), Gen.int(in: 0...300), Gen.int(in: 0...7)) { index, x, y, bits in
            let event = MouseEvent(actions[index], at: Point(x: x, y: y), modifiers: KeyModifiers(rawValue: UInt8(bits)))
            let bytes = try #require(event.bytes)
            #expect(Self.decode(bytes) == [.mouse(event)], "\(event)")
        }
        #expect(MouseEvent(.press(.left), at: Point(x: 4, y: 2)).bytes == Array("\u{1B}[<0;5;3M".utf8))
        #expect(MouseEvent(.release(.left), at: Point(x: 4, y: 2)).bytes == Array("\u{1B}[<0;5;3m".utf8))
        #expect(MouseEvent(.press(.left), at: Point(x: -1, y: 0)).bytes == nil)
        #expect(MouseEvent(.press(.other(4)), at: Point(x: 0, y: 0)).bytes == nil)
    }
}
