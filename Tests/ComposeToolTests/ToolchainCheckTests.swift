@testable import ComposeTool
import Foundation
import Testing

@Suite struct ToolchainCheckTests {
    /// A folder holding fake `swift` and `pkg-config` scripts.
    static func fakeTools(swiftVersion: String?, libuv: Bool?) throws -> [String: String] {
        let folder = try ToolPaths.temporaryFolder()
        func script(_ name: String, _ body: String) throws {
            let url = folder.appendingPathComponent(name)
            try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        if let swiftVersion {
            try script("swift", "echo 'Swift version \(swiftVersion) (swift-\(swiftVersion)-RELEASE)'; echo 'Target: x86_64-unknown-linux-gnu'")
        }
        if let libuv {
            try script("pkg-config", libuv ? "exit 0" : "exit 1")
        }
        return ["PATH": folder.path]
    }

    @Test func aRecentSwiftAndLibuvPass() throws {
        #expect(ToolchainCheck(environment: try Self.fakeTools(swiftVersion: "6.3.1", libuv: true)).problems() == [])
    }

    @Test func eachMissingPieceIsNamedWithHowToInstallIt() throws {
        let old = ToolchainCheck(environment: try Self.fakeTools(swiftVersion: "5.10", libuv: false)).problems()
        #expect(old.count == 2)
        #expect(old[0].contains("Swift 5.10 is too old"))
        #expect(old[0].contains("swiftly"))
        #expect(old[1].contains("libuv was not found by pkg-config"))
        #expect(old[1].contains("apt-get install libuv1-dev"))

        let none = ToolchainCheck(environment: try Self.fakeTools(swiftVersion: nil, libuv: nil)).problems()
        #expect(none.count == 2)
        #expect(none[0].contains("swift was not found on PATH"))
        #expect(none[1].contains("pkg-config was not found on PATH"))
    }

    @Test func theVersionIsReadFromSwiftVersion() {
        #expect(ToolchainCheck.swiftVersion(in: "Swift version 6.3.1 (swift-6.3.1-RELEASE)")! == (6, 3))
        #expect(ToolchainCheck.swiftVersion(in: "Apple Swift version 6.0 (swiftlang-6.0)")! == (6, 0))
        #expect(ToolchainCheck.swiftVersion(in: "nothing") == nil)
    }

    /// `compose new` runs the check with its own PATH, writes the app all
    /// the same, and says what is missing on standard error.
    @Test func newSaysWhatIsMissing() throws {
        let folder = try ToolPaths.temporaryFolder()
        let environment = try Self.fakeTools(swiftVersion: "6.3.1", libuv: false)
        let run = try ToolRun.run(ToolPaths.compose, ["new", "Notes", "--compose-path", ToolPaths.checkout.path], in: folder, environment: environment)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("warning: libuv was not found by pkg-config"))
        #expect(run.errors.split(separator: "\n").count == 1, "only libuv is missing: \(run.errors)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Notes/Package.swift").path))
    }
}
