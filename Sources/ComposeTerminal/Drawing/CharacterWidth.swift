/// How many terminal columns a character takes: 0, 1 or 2.
///
/// The answers come from Unicode's data, as the Python `wcwidth` package
/// (0.7.0, Unicode 17) tabulates it: scripts/generate-character-width.py
/// writes the tables of `CharacterWidth+Table.swift`, which are searched
/// by bisection.
///
/// - Control characters (C0, DEL, C1) take 0: they are never drawn.
/// - Combining marks, format controls and Hangul medial/final jamo take 0.
/// - East Asian Wide and Fullwidth characters (CJK, Hangul syllables,
///   full-width forms) and emoji shown as pictures take 2.
/// - Everything else takes 1 (East Asian Ambiguous characters included,
///   as terminals outside CJK locales draw them).
///
/// A grapheme cluster (a base with combining marks, an emoji ZWJ sequence,
/// a flag) is one `Character` and is measured by its first scalar, except
/// that an emoji asking for picture presentation with U+FE0F takes 2:
///
/// ```swift
/// CharacterWidth.of("a")            // 1
/// CharacterWidth.of("中")           // 2
/// CharacterWidth.of("e\u{301}")     // 1 (é as e + combining acute)
/// CharacterWidth.of("❤\u{FE0F}")    // 2
/// CharacterWidth.of("👩‍💻")          // 2 (one ZWJ sequence)
/// ```
public enum CharacterWidth {
    /// The columns `character` takes.
    public static func of(_ character: Character) -> Int {
        // ASCII (CR LF included) first: most of any screen.
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        return of(nonASCII: character)
    }

    /// The columns of a character known not to be ASCII (``of(_:)``
    /// without its ASCII test, which compares the character with CR LF).
    static func of(nonASCII character: Character) -> Int {
        // Through the scalars' iterator: `first` and indices validate
        // their index each time.
        var scalars = character.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return 0 }
        let width = of(scalar: first)
        if width == 1, IteratorSequence(scalars).contains(where: { $0.value == 0xFE0F }),
           contains(emojiPresentationWide, first.value) {
            return 2
        }
        return width
    }

    /// The columns `scalar` takes on its own.
    public static func of(scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return 1 }
        if contains(zeroWidth, value) { return 0 }
        if value >= 0x1100, contains(wide, value) { return 2 }
        return 1
    }

    /// Whether `value` lies in one of `ranges`' closed ranges (flattened
    /// lower, upper, lower, upper, sorted and disjoint).
    static func contains(_ ranges: [UInt32], _ value: UInt32) -> Bool {
        var low = 0, high = ranges.count / 2
        while low < high {
            let middle = (low + high) / 2
            if value < ranges[2 * middle] {
                high = middle
            } else if value > ranges[2 * middle + 1] {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
