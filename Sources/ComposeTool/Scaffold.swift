import Foundation

/// A set of files to write, checked as a whole before any is written.
struct Scaffold {
    struct File {
        /// The path relative to the scaffold's root.
        let path: String
        let contents: String
    }

    let root: URL
    var files: [File] = []

    /// Every file that already exists, relative paths.
    func existingFiles() -> [String] {
        files.map(\.path).filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
    }

    /// Writes every file, or nothing: all destinations are checked first.
    ///
    /// - Parameter force: Overwrite files that exist.
    /// - Returns: The paths written.
    func write(force: Bool) throws -> [String] {
        let existing = existingFiles()
        if !existing.isEmpty, !force {
            throw ScaffoldError("These files already exist, so nothing was written:\n" + existing.map { "  \($0)" }.joined(separator: "\n") + "\nRun again with --force to overwrite them.")
        }
        let manager = FileManager.default
        for file in files {
            let url = root.appendingPathComponent(file.path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url, options: .atomic)
        }
        return files.map(\.path)
    }
}
