import ComposeTerminal
import PropertyBased
import Testing

/// Any chunking of a byte stream gives the same events (and the same
/// problems) as feeding it whole: streams made of keys, sequences with
/// modifiers, pastes (some over the limit), mouse reports, over-long and
/// malformed sequences, invalid UTF-8 and random bytes, cut at random.
///
/// PropertyBased seeds each run and prints the seed of a failing case
/// (`.fixedSeed("…")` on the test replays it).
@Suite struct InputDecoderPropertyTests {
    static let fragments: [[UInt8]] = [
        "a", "Z", " ", "é", "日", "😀", "\r", "\n", "\t", "\u{7F}", "\u{8}", "\u{3}", "\u{0}",
        "\u{1B}[A", "\u{1B}[1;5A", "\u{1B}[1;2D", "\u{1B}OP", "\u{1B}OB", "\u{1B}[3~", "\u{1B}[15;3~", "\u{1B}[Z",
        "\u{1B}x", "\u{1B}é", "\u{1B}\u{1B}", "\u{1B}[<0;10;5M", "\u{1B}[<64;1;1M", "\u{1B}[<35;200;80m",
        "\u{1B}[200~hello\r\nworld\u{1B}[201~", "\u{1B}[200~\u{1B}[A 日本\u{1B}[201~", "\u{1B}[200~abcdefghijklmnop\u{1B}[201~",
        "\u{1B}[" + String(repeating: "1;", count: 20) + "A", "\u{1B}[12\u{7F}", "\u{1B}[?1;2c", "\u{1B}[99u",
    ].map { Array($0.utf8) } + [
        [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE6, 0x97], [0xF0, 0x9F], [0xFF], [0x1B],
    ]

    static let stream = Gen.int(in: 0...(fragments.count + 3)).map { index -> [UInt8] in
        index < fragments.count ? fragments[index] : []
    }.array(of: 0...30)

    static let randomBytes = Gen.int(in: 0...255).map { UInt8($0) }.array(of: 0...40)

    static let chunks = Gen.int(in: 1...7).array(of: 1...20)

    /// Feeds `bytes` in pieces of the sizes `chunks` (cycled), then flushes.
    static func decode(_ bytes: [UInt8], chunks: [Int], limits: InputDecoder.Limits) -> (events: [TerminalInput], problems: [InputDecoder.Problem]) {
        var decoder = InputDecoder(limits: limits)
        var events: [TerminalInput] = []
        var offset = 0
        var index = 0
        while offset < bytes.count {
            let size = chunks.isEmpty ? bytes.count : chunks[index % chunks.count]
            index += 1
            let end = min(bytes.count, offset + size)
            events += decoder.decode(bytes[offset..<end])
            offset = end
        }
        events += decoder.flush()
        return (events, decoder.takeProblems())
    }

    @Test func anyChunkingGivesTheEventsOfTheWholeStream() async {
        await propertyCheck(count: 1500, input: Self.stream, Self.randomBytes, Self.chunks, Gen.int(in: 0...2)) { fragments, random, chunks, place in
            // Random bytes before, among or after the fragments.
            var parts = fragments
            parts.insert(random, at: min(parts.count, place * parts.count / 2))
            let bytes = parts.flatMap { $0 }
            let limits = InputDecoder.Limits(maximumPasteBytes: 12, maximumSequenceBytes: 24)
            let whole = Self.decode(bytes, chunks: [], limits: limits)
            let pieces = Self.decode(bytes, chunks: chunks, limits: limits)
            #expect(pieces.events == whole.events, "bytes \(bytes), chunks \(chunks)")
            #expect(pieces.problems == whole.problems, "bytes \(bytes), chunks \(chunks)")
        }
    }

    @Test func textWithoutEscapesDecodesAsTheStandardLibraryDecodesIt() async {
        await propertyCheck(count: 1000, input: Self.randomBytes, Self.chunks) { random, chunks in
            let bytes = random.filter { $0 >= 0x20 && $0 != 0x7F }
            let expected = String(decoding: bytes, as: UTF8.self).unicodeScalars.map { TerminalInput.key(KeyEvent(.character(Character($0)))) }
            #expect(Self.decode(bytes, chunks: chunks, limits: InputDecoder.Limits()).events == expected, "bytes \(bytes)")
        }
    }
}
