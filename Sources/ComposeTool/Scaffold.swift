import Foundation

/// A set of files to write, checked as a whole before any is written.
struct Scaffold {
    struct File {
        /// The path relative to the scaffold's root.
        let path: String
        let contents: String
        /// The template it was rendered from (under Templates/, without
        /// `.mustache`).
        var template: String? = nil
    }

    let root: URL
    var files: [File] = []

    /// Every file that already exists, relative paths.
    func existingFiles() -> [String] {
        files.map(\.path).filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
    }

    /// Why writing would be refused (files exist and `force` is off), or
    /// `nil`.
    func refusal(force: Bool) -> ScaffoldError? {
        let existing = existingFiles()
        guard !existing.isEmpty, !force else { return nil }
        return ScaffoldError("These files already exist, so nothing was written:\n" + existing.map { "  \($0)" }.joined(separator: "\n") + "\nRun again with --force to overwrite them.")
    }

    /// Writes every file, or nothing: all destinations are checked first.
    ///
    /// - Parameter force: Overwrite files that exist.
    /// - Returns: The paths written.
    func write(force: Bool) throws -> [String] {
        if let refusal = refusal(force: force) { throw refusal }
        let manager = FileManager.default
        for file in files {
            let url = root.appendingPathComponent(file.path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url, options: .atomic)
        }
        return files.map(\.path)
    }
}
