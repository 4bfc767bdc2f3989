/// The characters of one line of text with their columns, read from its
/// UTF-8 bytes: a printable ASCII byte not followed by a non-ASCII one is
/// a character of one column without breaking the text into grapheme
/// clusters (most of any screen); anything else is found as the cluster
/// the standard library breaks there. A line break or a tab comes back
/// with width -1 (not one line); another control character with 0 (not
/// drawn).
///
/// ```swift
/// var clusters = LineClusters("日本 ok")
/// while let (character, width) = clusters.next() { ... }   // 日 2, 本 2, " " 1, o 1, k 1
/// ```
struct LineClusters {
    /// The text's bytes, copied once: read by offset, with no index
    /// validation and no retain of the string a byte.
    private let bytes: [UInt8]
    private let ascii: [Character]
    private var offset = 0
    /// The characters of the stretch of text that is not plain ASCII
    /// being read, and how many of them were read.
    private var stretch: [Character] = []
    private var stretchIndex = 0

    init(_ string: String) {
        bytes = Array(string.utf8)
        ascii = Self.ascii
    }

    /// The next character and its columns (0 for one that takes none, -1
    /// for a line break or a tab), or `nil` at the end.
    mutating func next() -> (Character, Int)? {
        if stretchIndex < stretch.count { return fromStretch() }
        guard offset < bytes.count else { return nil }
        if isPlainASCII(at: offset) {
            let byte = bytes[offset]
            offset += 1
            return (ascii[Int(byte)], Self.width(ascii: byte))
        }
        readStretch()
        return fromStretch()
    }

    /// The next character's columns only (as ``next()``).
    mutating func nextWidth() -> Int? {
        if stretchIndex < stretch.count { return fromStretch().1 }
        guard offset < bytes.count else { return nil }
        if isPlainASCII(at: offset) {
            let byte = bytes[offset]
            offset += 1
            return Self.width(ascii: byte)
        }
        readStretch()
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

    /// The 128 ASCII characters, by code: a cell's character without
    /// making one from its byte each time.
    static let ascii: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
}
