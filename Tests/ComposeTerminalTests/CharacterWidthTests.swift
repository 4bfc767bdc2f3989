import ComposeTerminal
import Testing

/// CharacterWidth against Unicode's data (the tables generated from the
/// Python wcwidth package): the kinds of characters a terminal app shows.
@Suite struct CharacterWidthTests {
    @Test func asciiTakesOneColumnAndControlsNone() {
        for scalar in (0x20...0x7E).compactMap(Unicode.Scalar.init) {
            #expect(CharacterWidth.of(scalar: scalar) == 1, "\(scalar)")
        }
        for value in Array(0x00...0x1F) + Array(0x7F...0x9F) {
            #expect(CharacterWidth.of(scalar: Unicode.Scalar(UInt32(value))!) == 0, "U+\(value)")
        }
        #expect(CharacterWidth.of("\r\n") == 0)
        #expect(CharacterWidth.of("\u{7}") == 0)
    }

    @Test func cjkAndFullWidthFormsTakeTwo() {
        for character: Character in ["中", "日", "語", "あ", "カ", "한", "글", "Ａ", "！", "￥", "〇", "𠀀", "㐀"] {
            #expect(CharacterWidth.of(character) == 2, "\(character)")
        }
        // Half-width katakana and the East Asian Ambiguous ones (Greek,
        // box drawing) take one.
        for character: Character in ["ｶ", "α", "─", "é", "ß", "Ж", "→"] {
            #expect(CharacterWidth.of(character) == 1, "\(character)")
        }
    }

    @Test func emojiTakeTwoAndAskingForPicturesWithFE0FToo() {
        for character: Character in ["😀", "🚀", "🦀", "⌚", "⭐", "🇫🇷", "👍🏽"] {
            #expect(CharacterWidth.of(character) == 2, "\(character)")
        }
        // Text-presentation symbols: one column alone, two with U+FE0F.
        #expect(CharacterWidth.of("❤") == 1)
        #expect(CharacterWidth.of("❤\u{FE0F}") == 2)
        #expect(CharacterWidth.of("☺") == 1)
        #expect(CharacterWidth.of("☺\u{FE0F}") == 2)
        #expect(CharacterWidth.of("1\u{FE0F}\u{20E3}") == 2)  // keycap 1
        // U+FE0F after a letter asks for nothing.
        #expect(CharacterWidth.of("a\u{FE0F}") == 1)
        // U+FE0E (text presentation) keeps a narrow symbol narrow.
        #expect(CharacterWidth.of("❤\u{FE0E}") == 1)
    }

    @Test func zwjSequencesAreOneClusterOfTwoColumns() {
        for character: Character in ["👩‍💻", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🧑🏽‍🚀"] {
            #expect(CharacterWidth.of(character) == 2, "\(character)")
        }
        #expect(CharacterWidth.of(scalar: "\u{200D}") == 0)
    }

    @Test func combiningMarksAndFormatControlsTakeNone() {
        for value: UInt32 in [0x0301, 0x0308, 0x20DD, 0x200B, 0x200D, 0xFE0F, 0x1160, 0x11A8, 0x0903] {
            #expect(CharacterWidth.of(scalar: Unicode.Scalar(value)!) == 0, "U+\(String(value, radix: 16))")
        }
        #expect(CharacterWidth.of("e\u{301}") == 1)
        #expect(CharacterWidth.of("a\u{308}\u{323}") == 1)
        #expect(CharacterWidth.of("\u{301}") == 0)
        #expect(CharacterWidth.of("각") == 2)  // a precomposed Hangul syllable
        // A soft hyphen is drawn (as wcwidth says).
        #expect(CharacterWidth.of("\u{AD}") == 1)
    }

    @Test func theGeneratedTablesAreSortedAndDisjoint() {
        // Every scalar of the first planes answers without trapping, and
        // neighbours of range bounds answer like the ranges say.
        var wide = 0, zero = 0
        for value in UInt32(0)...0x3FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch CharacterWidth.of(scalar: scalar) {
            case 2: wide += 1
            case 0: zero += 1
            default: break
            }
        }
        // Unicode 17: about 180k wide (CJK planes) and 2.5k zero-width.
        #expect(wide > 170_000 && wide < 200_000, "\(wide)")
        #expect(zero > 2_000 && zero < 4_000, "\(zero)")
    }
}
