/// The names a configuration key goes by on the command line and in the
/// environment, spelled as swift-configuration's providers spell them:
/// `roomCapacity` is `--room-capacity` and `ROOM_CAPACITY`, `http.port` is
/// `--http-port` and `HTTP_PORT`.
enum ConfigKeyNames {
    /// The components of a dotted key: `["http", "port"]` for `http.port`.
    static func components(_ key: String) -> [String] {
        key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// `--room-capacity` for `roomCapacity`, `--http-port` for `http.port`.
    static func flag(_ key: String) -> String {
        "--" + components(key).map { splitCamelCase($0, with: "-").lowercased() }.joined(separator: "-")
    }

    /// `CHAT_ROOM_CAPACITY` for `roomCapacity` with the prefix `CHAT`.
    static func environment(_ key: String, prefix: String?) -> String {
        let all = (prefix.map { [$0.lowercased()] } ?? []) + components(key)
        return all.map { component in
            String(splitCamelCase(component, with: "_").uppercased().map { isLetterOrNumber($0) ? $0 : "_" })
        }.joined(separator: "_")
    }

    /// Inserts `separator` where a lowercase letter meets an uppercase one.
    private static func splitCamelCase(_ component: String, with separator: Character) -> String {
        var result = ""
        var previous: Character?
        for character in component {
            if let previous, isLowercase(previous), isUppercase(character) { result.append(separator) }
            result.append(character)
            previous = character
        }
        return result
    }

    // ASCII first: keys are nearly always ASCII, and Character's Unicode
    // properties cost a lookup in the standard library's tables (pages of
    // memory every app would otherwise touch at startup).

    static func isLowercase(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii >= 0x61 && ascii <= 0x7A }
        return character.isLowercase
    }

    static func isUppercase(_ character: Character) -> Bool {
        if let ascii = character.asciiValue { return ascii >= 0x41 && ascii <= 0x5A }
        return character.isUppercase
    }

    private static func isLetterOrNumber(_ character: Character) -> Bool {
        if let ascii = character.asciiValue {
            return (ascii >= 0x30 && ascii <= 0x39) || (ascii >= 0x41 && ascii <= 0x5A) || (ascii >= 0x61 && ascii <= 0x7A)
        }
        return character.isLetter || character.isNumber
    }
}
