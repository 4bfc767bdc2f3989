import Foundation

/// A Compose app on disk: its root and the module that holds Components/.
struct Project {
    let root: URL
    let module: String

    var componentsFolder: String { "Sources/\(module)/Components" }
}

enum ProjectLocator {
    /// Walks up from `start` to the first folder with a Package.swift and a
    /// `Sources/*/Components` folder.
    static func find(from start: URL) throws -> Project {
        var folder = start.standardizedFileURL
        let manager = FileManager.default
        while true {
            if manager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                let sources = folder.appendingPathComponent("Sources")
                let modules = (try? manager.contentsOfDirectory(atPath: sources.path)) ?? []
                if let module = modules.sorted().first(where: { manager.fileExists(atPath: sources.appendingPathComponent($0).appendingPathComponent("Components").path) }) {
                    return Project(root: folder, module: module)
                }
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        throw ScaffoldError("\(start.path) is not inside a Compose app: no folder from here up has a Package.swift and Sources/MODULE/Components. Run compose component inside an app made by compose new.")
    }
}
