import Foundation

/// Runs a command to completion and captures its output.
struct ToolRun {
    let status: Int32
    let output: String
    let errors: String

    /// Runs `executable` with `arguments` in `directory`.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String]? = nil) throws -> ToolRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes to the end before waiting, so a chatty child
        // never blocks on a full pipe.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self), errors: String(decoding: errData, as: UTF8.self))
    }
}

/// Where things are: the built `compose`, the checkout, temporary folders.
enum ToolPaths {
    static let checkout = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `compose` executable built next to the test bundle.
    static var compose: URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("compose"),
            Bundle.main.bundleURL.appendingPathComponent("compose"),
            checkout.appendingPathComponent(".build/debug/compose"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("compose-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every file under `folder`, relative paths, sorted.
    static func files(in folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [String] = []
        for case let path as String in walker {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if exists, !isDirectory.boolValue { files.append(path) }
        }
        return files.sorted()
    }
}
