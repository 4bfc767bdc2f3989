/// The names a configuration key goes by on the command line and in the
/// environment, spelled as swift-configuration's providers spell them:
/// `roomCapacity` is `--room-capacity` and `ROOM_CAPACITY`, `http.port` is
/// `--http-port` and `HTTP_PORT`.
///
/// Keys are spelled byte by byte when they are ASCII (nearly always):
/// walking a string's `Character`s runs the standard library's grapheme
/// breaking and Unicode property lookups, which cost every lookup of a
/// setting tens of thousands of instructions at startup (docs/footprint.md).
enum ConfigKeyNames {
    /// The components of a dotted key: `["http", "port"]` for `http.port`.
    static func components(_ key: String) -> [String] {
        key.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `--room-capacity` for `roomCapacity`, `--http-port` for `http.port`.
    static func flag(_ key: String) -> String {
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return unicodeFlag(key) }
        var bytes: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "-")]
        bytes.reserveCapacity(key.utf8.count + 8)
        var previous: UInt8 = 0
        for byte in key.utf8 {
            if byte == UInt8(ascii: ".") {
                bytes.append(UInt8(ascii: "-"))
            } else {
                if isLowercase(previous), isUppercase(byte) { bytes.append(UInt8(ascii: "-")) }
                bytes.append(isUppercase(byte) ? byte + 0x20 : byte)
            }
            previous = byte == UInt8(ascii: ".") ? 0 : byte
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `CHAT_ROOM_CAPACITY` for `roomCapacity` with the prefix `CHAT`.
    static func environment(_ key: String, prefix: String?) -> String {
        let isASCII = key.utf8.allSatisfy { $0 < 0x80 } && (prefix?.utf8.allSatisfy { $0 < 0x80 } ?? true)
        guard isASCII else { return unicodeEnvironment(prefix.map { $0.lowercased() + "." + key } ?? key) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count + (prefix?.utf8.count ?? 0) + 8)
        // The prefix is one word: upper-cased, never split.
        if let prefix {
            for byte in prefix.utf8 { bytes.append(environmentByte(byte)) }
            bytes.append(UInt8(ascii: "_"))
        }
        var previous: UInt8 = 0
        for byte in key.utf8 {
            if isLowercase(previous), isUppercase(byte) { bytes.append(UInt8(ascii: "_")) }
            bytes.append(environmentByte(byte))
            previous = byte == UInt8(ascii: ".") ? 0 : byte
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A byte of a variable's name: upper case, `_` for anything but a
    /// letter or a digit.
    private static func environmentByte(_ byte: UInt8) -> UInt8 {
        isLowercase(byte) ? byte - 0x20 : isLetterOrDigit(byte) ? byte : UInt8(ascii: "_")
    }

    static func isLowercase(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    static func isUppercase(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isLowercase(byte) || isUppercase(byte) || (byte >= 0x30 && byte <= 0x39)
    }

    // MARK: Keys that are not ASCII

    private static func unicodeFlag(_ key: String) -> String {
        "--" + components(key).map { splitCamelCase($0, with: "-").lowercased() }.joined(separator: "-")
    }

    private static func unicodeEnvironment(_ whole: String) -> String {
        components(whole).map { component in
            String(splitCamelCase(component, with: "_").uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        }.joined(separator: "_")
    }

    /// Inserts `separator` where a lowercase letter meets an uppercase one.
    private static func splitCamelCase(_ component: String, with separator: Character) -> String {
        var result = ""
        var previous: Character?
        for character in component {
            if let previous, previous.isLowercase, character.isUppercase { result.append(separator) }
            result.append(character)
            previous = character
        }
        return result
    }
}
