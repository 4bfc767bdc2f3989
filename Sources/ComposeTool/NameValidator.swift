import Foundation

/// Checks that a name the user typed can be the Swift type name the tool
/// generates, and suggests the name they probably meant when it cannot.
enum NameValidator {
    /// Swift keywords (declarations, statements, expressions, types), and
    /// the contextual ones a type cannot be named after.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
        "true", "try", "Type", "Protocol", "some", "any", "borrowing", "consuming", "async", "actor", "package",
        "macro", "nonisolated", "isolated", "each", "sending",
    ]

    /// Modules a generated app or its code imports or refers to: an app
    /// (a module) of the same name would shadow them.
    static let modules: Set<String> = [
        "Compose", "ComposeApp", "ComposePersistence", "ComposeTesting", "Swift", "Foundation",
        "FoundationEssentials", "Glibc", "Dispatch", "Testing", "XCTest", "Logging", "Configuration",
    ]

    /// The public types of Compose, ComposeApp, ComposePersistence and
    /// ComposeTesting a generated type would clash with (for a component
    /// NAME, the tool declares `NAMEComponent` and `NAMEState`).
    /// ComposeToolTests checks that every public `...Component` type of
    /// the checkout is here.
    static let composeTypes: Set<String> = [
        "Component", "PassiveComponent", "RouterComponent", "StartupComponent", "LazyComponent", "InstanceComponent",
        "DynamicComponent", "ComponentNode", "ComponentTree", "Router", "Route", "Emitter", "ValueEmitter",
        "Store", "Service", "Application", "AppContext", "TCPServer", "TCPConnection", "UnixServer",
        "StandardInput", "ChildProcess", "LoopTimer", "FileWatcher", "Validation", "ValidationResult",
        "Field", "TestApp", "Supervisor", "Supervised", "Backoff", "WorkerOptions", "StartupConfiguration",
        "ConfigOptions", "Trace", "Ref", "Status", "VersionedState", "StateEnvelope", "Diagnostic",
        // ComposeTerminal's component protocols.
        "ViewComponent", "RoutableViewComponent",
    ]

    /// `nil` when `name` is a valid Swift type name the tool may generate,
    /// else why not, with the name the user probably meant when there is
    /// one (`profileComponent`: "did you mean ProfileComponent?").
    static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else {
            return "the name is empty; give a Swift type name such as Profile"
        }
        if keywords.contains(name) {
            return "\"\(name)\" is a Swift keyword; give a Swift type name such as \(capitalized(name))Screen"
        }
        if modules.contains(name) || composeTypes.contains(name) {
            return "\"\(name)\" is already used by Compose or Swift; give another name, such as My\(name)"
        }
        let hint = suggestion(for: name).map { " (did you mean \($0)?)" } ?? ""
        if first == "_" {
            return "\"\(name)\" starts with an underscore, but a type name the tool generates starts with an uppercase letter\(hint)"
        }
        if let bad = name.unicodeScalars.first(where: { !letters.contains($0) && !digits.contains($0) }), bad.properties.isAlphabetic {
            return "\"\(name)\" contains \"\(bad)\", a letter outside ASCII; the tool's type names (and so its file and target names) use the letters A-Z and a-z and digits only\(hint)"
        }
        guard letters.contains(first) else {
            return "\"\(name)\" must start with a letter; a Swift type name starts with an uppercase letter\(hint)"
        }
        if let bad = name.unicodeScalars.first(where: { !letters.contains($0) && !digits.contains($0) }) {
            return "\"\(name)\" contains \"\(bad)\", which a Swift type name cannot; use letters and digits only\(hint)"
        }
        guard uppercase.contains(first) else {
            return "\"\(name)\" starts with a lowercase letter, but a type name starts with an uppercase one\(hint)"
        }
        return nil
    }

    /// The valid type name closest to `name`: words split on anything that
    /// is not a letter or digit, each capitalized, leading digits dropped,
    /// accents dropped from letters outside ASCII (`my-app` → `MyApp`,
    /// `profileComponent` → `ProfileComponent`, `Écho` → `Echo`);
    /// `nil` when nothing valid is left or the result is `name` itself.
    static func suggestion(for name: String) -> String? {
        var words: [String] = []
        var word = ""
        for scalar in name.unicodeScalars.flatMap(asciiLetters) {
            if letters.contains(scalar) || digits.contains(scalar) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var fixed = words.map(capitalized).joined()
        while let first = fixed.unicodeScalars.first, digits.contains(first) || first == "_" { fixed.removeFirst() }
        fixed = capitalized(fixed)
        guard !fixed.isEmpty, fixed != name, !keywords.contains(fixed), !modules.contains(fixed), !composeTypes.contains(fixed) else {
            return nil
        }
        return fixed
    }

    /// `scalar`, or for a letter outside ASCII its ASCII base letters
    /// (`É` → `E`, `ß` → `ss`), or itself when it has none.
    private static func asciiLetters(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        guard !scalar.isASCII, scalar.properties.isAlphabetic else { return [scalar] }
        let folded = String(scalar).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let base = Array(folded.unicodeScalars)
        return base.allSatisfy({ letters.contains($0) }) && !base.isEmpty ? base : [scalar]
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    // ASCII only: a type name the generated files, paths and shell
    // commands all spell the same way.
    private static let uppercase = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
    private static let letters = uppercase.union("abcdefghijklmnopqrstuvwxyz_".unicodeScalars)
    private static let digits = Set("0123456789".unicodeScalars)
}
