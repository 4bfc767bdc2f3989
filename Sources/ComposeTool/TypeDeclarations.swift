import Foundation

/// The types an app's module already declares, read from its Swift files,
/// so a new component never declares a second `ProfileComponent`.
struct TypeDeclarations {
    /// Type name → the file (relative to the project root) declaring it.
    private(set) var files: [String: String] = [:]

    /// At most this many files are read, and only their first megabyte:
    /// the scan is a courtesy check, not a compiler.
    static let fileLimit = 5_000
    static let byteLimit = 1 << 20

    /// Reads every `.swift` file under `Sources/MODULE` of `project`,
    /// except `skipping` (paths relative to the root: the files about to
    /// be overwritten).
    init(in project: Project, skipping: Set<String> = []) {
        let root = project.root.standardizedFileURL
        let sources = root.appendingPathComponent("Sources/\(project.module)")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return }
        var read = 0
        for case let path as String in walker where path.hasSuffix(".swift") {
            let relative = "Sources/\(project.module)/\(path)"
            if skipping.contains(relative) { continue }
            read += 1
            if read > Self.fileLimit { break }
            guard let handle = FileHandle(forReadingAtPath: sources.appendingPathComponent(path).path) else { continue }
            let data = (try? handle.read(upToCount: Self.byteLimit)) ?? Data()
            try? handle.close()
            for name in Self.declaredTypes(in: String(decoding: data, as: UTF8.self)) where files[name] == nil {
                files[name] = relative
            }
        }
    }

    /// The names after `struct`, `class`, `enum`, `protocol`, `actor` and
    /// `typealias` at the start of a line (after modifiers and attributes).
    static func declaredTypes(in text: String) -> [String] {
        let introducers: Set<Substring> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        var names: [String] = []
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let index = words.firstIndex(where: { introducers.contains($0) }), index + 1 < words.count else { continue }
            // Only modifiers and attributes may come before the keyword.
            guard words[..<index].allSatisfy({ $0.hasPrefix("@") || modifiers.contains($0) }) else { continue }
            let name = words[index + 1].prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
            if !name.isEmpty { names.append(String(name)) }
        }
        return names
    }

    private static let modifiers: Set<Substring> = [
        "public", "internal", "private", "fileprivate", "package", "open", "final", "indirect", "nonisolated",
    ]

    /// The file declaring `name`, if any.
    func file(declaring name: String) -> String? {
        files[name]
    }
}
