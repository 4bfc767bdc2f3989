import Foundation
import Testing

/// `@Store(persistedAs:)` exists exactly where ComposePersistence is
/// imported (issue #33: a counter daemon written from the README compiled,
/// ran and persisted nothing until it also named a back end). Each case is
/// a small file type-checked by the real compiler against the modules this
/// test run was built with.
@Suite struct PersistenceImportTests {
    /// The checkout (this file is Tests/ComposeAppTests/...).
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built modules, next to the test bundle (`<scratch>/<triple>/debug/Modules`).
    static var modules: URL? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [bundle, Bundle.main.bundleURL.deletingLastPathComponent(), bundle.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("Modules") }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("ComposePersistence.swiftmodule").path) }
    }

    /// A component with a persisted store of `state`, in a file with
    /// `imports`.
    static func source(imports: [String], state: String = "struct Counter: Codable, Equatable { var count = 0 }") -> String {
        imports.map { "import \($0)\n" }.joined() + """
            \(state)

            struct CounterComponent: Component {
                @Store(persistedAs: "counter") var state = Counter()
                var observers: Void { None }
            }

            """
    }

    /// Type-checks `source` as a Swift 6 file; the compiler's status and
    /// messages.
    static func typeCheck(_ source: String) throws -> (status: Int32, output: String) {
        let modules = try #require(Self.modules, "no Modules folder next to \(CommandLine.arguments[0])")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compose-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Counter.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6",
            "-I", modules.path, "-I", checkout.appendingPathComponent("Sources/CLibUV").path,
            "-module-cache-path", folder.appendingPathComponent("cache").path,
            file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(.timeLimit(.minutes(2)))
    func withoutTheImportAPersistedStoreDoesNotCompileAndSaysWhatToImport() throws {
        let result = try Self.typeCheck(Self.source(imports: ["ComposeApp"]))
        #expect(result.status != 0, "\(result.output)")
        #expect(result.output.contains("error: 'init(wrappedValue:persistedAs:)' is unavailable: import ComposePersistence to persist a store"), "\(result.output)")
    }

    @Test(.timeLimit(.minutes(2)))
    func withTheImportItCompiles() throws {
        let result = try Self.typeCheck(Self.source(imports: ["ComposeApp", "ComposePersistence"]))
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }

    /// With the import, a state that is not `Codable` is told so, not to
    /// import what it imports.
    @Test(.timeLimit(.minutes(2)))
    func withTheImportAStateThatIsNotCodableIsToldItMustBe() throws {
        let result = try Self.typeCheck(Self.source(imports: ["ComposeApp", "ComposePersistence"], state: "struct Counter: Equatable { var count = 0 }"))
        #expect(result.status != 0)
        #expect(result.output.contains("requires that 'Counter' conform to 'Encodable'"), "\(result.output)")
        #expect(!result.output.contains("import ComposePersistence to persist a store"), "\(result.output)")
    }
}
