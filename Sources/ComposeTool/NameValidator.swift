/// Checks that a name can be a Swift type name.
enum NameValidator {
    /// Swift keywords (declarations, statements, expressions, types).
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
        "true", "try", "Type", "Protocol", "some", "any", "borrowing", "consuming", "async", "actor", "package",
    ]

    /// Names a generated type may not take because Compose or Swift already
    /// uses them in the generated code.
    static let reserved: Set<String> = ["Component", "Router", "Emitter", "App", "Compose", "ComposeApp", "Swift", "Foundation"]

    /// `nil` when `name` is a valid type name, else why not.
    static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else {
            return "the name is empty; give a Swift type name such as Profile"
        }
        if keywords.contains(name) {
            return "\"\(name)\" is a Swift keyword; give a Swift type name such as \(name.prefix(1).uppercased() + name.dropFirst())Screen"
        }
        if reserved.contains(name) {
            return "\"\(name)\" is already used by Compose or Swift; give another name, such as My\(name)"
        }
        let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_".unicodeScalars)
        let digits = Set("0123456789".unicodeScalars)
        guard letters.contains(first) else {
            return "\"\(name)\" must start with a letter or _; give a Swift type name such as Profile"
        }
        if let bad = name.unicodeScalars.first(where: { !letters.contains($0) && !digits.contains($0) }) {
            return "\"\(name)\" contains \"\(bad)\", which a Swift type name cannot; use letters, digits and _ only"
        }
        return nil
    }
}
