/// The characters of one line of text with their columns, read from its
/// UTF-8 bytes: a printable ASCII byte not followed by a non-ASCII one is
/// a character of one column without breaking the text into grapheme
/// clusters (most of any screen); so is an ``isSimple(_:)`` scalar (CJK,
/// kana, Hangul syllables, Latin-1, Cyrillic: no rule of Unicode's joins
/// two of them, or one with ASCII) followed by another or by ASCII; anything else is
/// found as the cluster the standard library breaks there. A line break or
/// a tab comes back with width -1 (not one line); another control
/// character with 0 (not drawn).
///
/// ```swift
/// var clusters = LineClusters("日本 ok")
/// while let (character, width) = clusters.next() { ... }   // 日 2, 本 2, " " 1, o 1, k 1
/// ```
struct LineClusters {
    /// The text's bytes, copied once: read by offset, with no index
    /// validation and no retain of the string a byte.
    private let bytes: [UInt8]
    private var offset = 0
    /// The characters of the stretch of text that is not plain ASCII
    /// being read, and how many of them were read.
    private var stretch: [Character] = []
    private var stretchIndex = 0

    init(_ string: String) {
        bytes = Array(string.utf8)
    }

    /// The next character and its columns (0 for one that takes none, -1
    /// for a line break or a tab), or `nil` at the end.
    mutating func next() -> (Character, Int)? {
        if let (scalar, width) = nextScalar() { return (Character(scalar), width) }
        guard stretchIndex < stretch.count else { return nil }
        return fromStretch()
    }

    /// The next character when it is one scalar read without the standard
    /// library's grapheme breaking (plain ASCII, or a simple scalar that
    /// nothing joins), with its columns; `nil` at the end, or when the next
    /// character is another kind (then ``next()`` returns it).
    mutating func nextScalar() -> (Unicode.Scalar, Int)? {
        if stretchIndex < stretch.count { return nil }
        guard offset < bytes.count else { return nil }
        if isPlainASCII(at: offset) {
            let byte = bytes[offset]
            offset += 1
            return (Unicode.Scalar(byte), Self.width(ascii: byte))
        }
        // A simple scalar (or printable ASCII) followed by ASCII, another
        // simple scalar or nothing is a character on its own: the text
        // breaks before it (this is where the last character ended) and
        // after it (no rule joins it with what follows).
        let (scalar, length) = self.scalar(at: offset)
        let next = offset + length
        if Self.isSimple(scalar), next == bytes.count || bytes[next] < 0x80 || Self.isSimple(self.scalar(at: next).0) {
            offset = next
            return (scalar, Self.width(simple: scalar))
        }
        readStretch()
        return nil
    }

    /// The scalar whose UTF-8 starts at `index` (the bytes are a
    /// `String`'s: valid UTF-8) and its length in bytes.
    private func scalar(at index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (Unicode.Scalar(UInt8(lead)), 1) }
        if lead < 0xE0 {
            return (Unicode.Scalar((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)) ?? "\u{FFFD}", 2)
        }
        if lead < 0xF0 {
            let value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            return (Unicode.Scalar(value) ?? "\u{FFFD}", 3)
        }
        let value = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
            | UInt32(bytes[index + 3] & 0x3F)
        return (Unicode.Scalar(value) ?? "\u{FFFD}", 4)
    }

    /// The printable ASCII characters that come next (each one column),
    /// at most `limit` of them: the bytes, read without making a
    /// character of each; empty when the next character is another kind.
    mutating func nextPrintableASCII(limit: Int) -> ArraySlice<UInt8> {
        guard stretchIndex >= stretch.count else { return [] }
        let start = offset
        let last = offset + min(bytes.count - offset, max(0, limit))
        var end = bytes[start..<last].firstIndex { $0 &- 0x20 >= 0x5F } ?? last
        // The last one is not a character of its own when a non-ASCII
        // scalar follows (a combining mark would be part of it).
        if end > start, end < bytes.count, bytes[end] >= 0x80 { end -= 1 }
        offset = end
        return bytes[start..<end]
    }

    /// The next character's columns only (as ``next()``).
    mutating func nextWidth() -> Int? {
        if let (_, width) = nextScalar() { return width }
        guard stretchIndex < stretch.count else { return nil }
        return fromStretch().1
    }

    /// Whether the byte at `index` is a character on its own: an ASCII
    /// control but CR (CR LF is one; a control is never joined with what
    /// follows), or printable ASCII followed by ASCII or nothing (a
    /// combining mark after it would be part of it).
    private func isPlainASCII(at index: Int) -> Bool {
        let byte = bytes[index]
        guard byte < 0x80 else { return false }
        if byte < 0x20 || byte == 0x7F { return byte != 0x0D }
        return index + 1 == bytes.count || bytes[index + 1] < 0x80
    }

    /// Breaks the stretch from ``offset`` up to the next plain ASCII byte,
    /// and that byte (a prepended mark, U+0600 before a digit, makes one
    /// character with it), into characters, as the standard library does.
    /// The text breaks after that byte: printable ASCII followed by ASCII,
    /// or a control.
    private mutating func readStretch() {
        var end = offset + 1
        while end < bytes.count, !isPlainASCII(at: end) { end += 1 }
        if end < bytes.count { end += 1 }
        stretch = Array(String(decoding: bytes[offset..<end], as: UTF8.self))
        stretchIndex = 0
        offset = end
    }

    private mutating func fromStretch() -> (Character, Int) {
        let character = stretch[stretchIndex]
        stretchIndex += 1
        // Not plain ASCII (CR, CR LF, a character of other scalars), or
        // the byte after such a stretch (a tab).
        if character.isNewline || character.unicodeScalars.first == "\t" { return (character, -1) }
        return (character, CharacterWidth.of(nonASCII: character))
    }

    private static func width(ascii byte: UInt8) -> Int {
        switch byte {
        case 0x20..<0x7F: 1
        case 0x09, 0x0A, 0x0B, 0x0C: -1
        default: 0
        }
    }

    /// The columns of a simple scalar (``isSimple(_:)``): 1 below the CJK
    /// blocks, 2 in them (what ``CharacterWidth/of(scalar:)`` answers,
    /// without its table search; *LineClustersTests* checks every one).
    static func width(simple scalar: Unicode.Scalar) -> Int {
        scalar.value < 0x3000 ? 1 : 2
    }

    /// Whether `scalar` is printable ASCII or a scalar that Unicode's
    /// grapheme rules never join with a neighbour of this set or with
    /// ASCII (Grapheme_Cluster_Break Other, or a Hangul syllable, which
    /// joins only with jamo; none is an Extend or a SpacingMark, a
    /// Prepend, ZWJ or a regional indicator): one that follows the end of
    /// a character and is followed by another of the set, by ASCII or by
    /// nothing is a character of its own.
    /// *LineClustersTests.simpleScalarsAreCharactersOfTheirOwn* checks the
    /// claim against the standard library on every scalar of the set.
    static func isSimple(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0x20..<0x7F: return true
        case 0xA0..<0x250: return value != 0xAD  // Latin-1, Latin Extended (not the soft hyphen, a control)
        case 0x400..<0x483, 0x48A..<0x530: return true  // Cyrillic (not its combining marks)
        case 0x3000..<0x302A: return true  // CJK symbols (not the tone marks)
        case 0x3041..<0x3097, 0x309B..<0x3100: return true  // kana (not the combining sound marks)
        case 0x3400..<0x4DC0, 0x4E00..<0xA000: return true  // CJK ideographs
        case 0xAC00..<0xD7A4: return true  // Hangul syllables
        case 0xFF01..<0xFF61, 0xFFE0..<0xFFE7: return true  // full-width forms
        default: return false
        }
    }
}
