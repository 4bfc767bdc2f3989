@testable import ComposeTerminal
import Testing

/// `LineClusters` reads a stretch of simple scalars (CJK, kana, Hangul
/// syllables, Latin-1, Cyrillic) one character a scalar, without the
/// standard library's grapheme breaking: the claim behind it, checked on
/// every scalar of the set.
@Suite struct LineClustersTests {
    static let simpleScalars: [Unicode.Scalar] = (0x20...0xFFFF).compactMap { value in
        Unicode.Scalar(UInt32(value)).flatMap { LineClusters.isSimple($0) ? $0 : nil }
    }

    @Test func simpleScalarsAreCharactersOfTheirOwn() {
        let scalars = Self.simpleScalars
        #expect(scalars.count > 39_000)
        // Each beside itself, beside ASCII, and beside a scalar of each
        // block of the set: never joined.
        let neighbours: [Unicode.Scalar] = ["a", " ", "é", "Ж", "〇", "ア", "日", "가", "Ａ", "©", "\r", "\u{7}", "\n"]
        var wrong: [UInt32] = []
        for scalar in scalars {
            var string = String(scalar)
            for neighbour in neighbours {
                string.unicodeScalars.append(neighbour)
                string.unicodeScalars.append(scalar)
            }
            string.unicodeScalars.append(scalar)
            if string.count != string.unicodeScalars.count { wrong.append(scalar.value) }
        }
        #expect(wrong.isEmpty, "joined: \(wrong.prefix(20).map { String($0, radix: 16) })")
    }

    @Test func simpleWidthsAreCharacterWidths() {
        let wrong = Self.simpleScalars.filter { LineClusters.width(simple: $0) != CharacterWidth.of(scalar: $0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(20).map { String($0.value, radix: 16) })")
    }

    /// What LineClusters reads, against the standard library's characters,
    /// on strings of simple scalars with what would join them.
    @Test func clustersAreTheStandardLibrarysCharacters() {
        var generator = SplitMix64(seed: 0xC1A5_7E25)
        let pieces: [String] = ["a", " ", "é", "Ж", "日", "ア", "가", "Ａ", "©", "\u{3099}", "\u{301}", "\u{200D}", "\u{1100}",
                                "\u{11A8}", "\u{FE0F}", "\u{1F1EB}", "\r", "\u{7}", "👩‍💻", "\u{0600}"]
        for _ in 0..<2_000 {
            let string = (0..<Int(generator.next() % 12)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            var clusters = LineClusters(string)
            var read: [Character] = []
            while let (character, _) = clusters.next() { read.append(character) }
            #expect(read.map { Array($0.unicodeScalars) } == Array(string).map { Array($0.unicodeScalars) },
                    "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
