import Configuration

/// The names a configuration key goes by on the command line and in the
/// environment, spelled as swift-configuration's providers look them up
/// (its encoders are internal): `roomCapacity` is `--room-capacity` and
/// `ROOM_CAPACITY`, `http.port` is `--http-port` and `HTTP_PORT`.
enum ConfigKeyNames {
    /// `--room-capacity` for `["roomCapacity"]`.
    static func flag(_ components: [String]) -> String {
        "--" + components.map { splitCamelCase($0, with: "-").lowercased() }.joined(separator: "-")
    }

    /// `CHAT_ROOM_CAPACITY` for `["roomCapacity"]` with the prefix `CHAT`.
    static func environment(_ components: [String], prefix: String?) -> String {
        let all = (prefix.map { [$0.lowercased()] } ?? []) + components
        return all.map { component in
            String(splitCamelCase(component, with: "_").uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        }.joined(separator: "_")
    }

    /// The key's components as the file has them: `http.port`.
    static func fileKey(_ components: [String]) -> String {
        components.joined(separator: ".")
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
