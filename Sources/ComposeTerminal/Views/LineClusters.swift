/// The characters of one line of text with their columns, read from its
/// UTF-8 bytes: a printable ASCII byte not followed by a non-ASCII one is
/// a character of one column without breaking the text into grapheme
/// clusters (most of any screen); so is each scalar of a stretch made only
/// of ``isSimple(_:)`` scalars (CJK, kana, Hangul syllables, Latin-1,
/// Cyrillic: no rule of Unicode's joins two of them); anything else is
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
    /// The same for a stretch of simple scalars, each a character.
    private var scalars: [Unicode.Scalar] = []
    private var scalarIndex = 0

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
    /// library's grapheme breaking (plain ASCII, or a scalar of a simple
    /// stretch), with its columns; `nil` at the end, or when the next
    /// character is another kind (then ``next()`` returns it).
    mutating func nextScalar() -> (Unicode.Scalar, Int)? {
        if scalarIndex < scalars.count {
            let scalar = scalars[scalarIndex]
            scalarIndex += 1
            return (scalar, Self.width(simple: scalar))
        }
        if stretchIndex < stretch.count { return nil }
        guard offset < bytes.count else { return nil }
        if isPlainASCII(at: offset) {
            let byte = bytes[offset]
            offset += 1
            return (Unicode.Scalar(byte), Self.width(ascii: byte))
        }
        readStretch()
        return nextScalar()
    }

    /// The printable ASCII characters that come next (each one column),
    /// at most `limit` of them: the bytes, read without making a
    /// character of each; empty when the next character is another kind.
    mutating func nextPrintableASCII(limit: Int) -> ArraySlice<UInt8> {
        guard scalarIndex >= scalars.count, stretchIndex >= stretch.count else { return [] }
        let start = offset
        var end = offset
        let last = min(bytes.count, offset + max(0, limit))
        while end < last, bytes[end] >= 0x20, bytes[end] < 0x7F, end + 1 == bytes.count || bytes[end + 1] < 0x80 { end += 1 }
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
    /// or a control. A stretch of printable ASCII and simple scalars only
    /// is one character a scalar, read as scalars.
    private mutating func readStretch() {
        var end = offset + 1
        while end < bytes.count, !isPlainASCII(at: end) { end += 1 }
        if end < bytes.count { end += 1 }
        let text = bytes[offset..<end]
        offset = end
        scalars.removeAll(keepingCapacity: true)
        scalarIndex = 0
        var decoder = UTF8()
        var iterator = text.makeIterator()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                guard Self.isSimple(scalar) else { break decoding }
                scalars.append(scalar)
            case .emptyInput:
                stretch = []
                stretchIndex = 0
                return
            case .error:
                break decoding
            }
        }
        scalars.removeAll(keepingCapacity: true)
        stretch = Array(String(decoding: text, as: UTF8.self))
        stretchIndex = 0
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
    /// printable ASCII (Grapheme_Cluster_Break Other, or a Hangul
    /// syllable, which joins only with jamo; none is an Extend or a
    /// SpacingMark, a Prepend, ZWJ or a regional indicator): in a stretch
    /// of such scalars each is a character of its own.
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
