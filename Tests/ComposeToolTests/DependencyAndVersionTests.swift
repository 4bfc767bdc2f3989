@testable import ComposeTool
import ComposeTemplates
import Foundation
import Testing

/// Issue #29: `compose new` wrote `.package(path: "<absolute path of the
/// checkout>")`, and the project had no version.
@Suite struct DependencyAndVersionTests {
    static func manifest(_ options: [String]) throws -> (status: Int32, manifest: String?, errors: String) {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", "Notes"] + options, in: folder)
        let manifest = try? String(contentsOf: folder.appendingPathComponent("Notes/Package.swift"), encoding: .utf8)
        return (run.status, manifest, run.errors)
    }

    @Test func theToolsVersionIsTheRepositorysVersionFile() throws {
        let file = try String(contentsOf: ToolPaths.checkout.appendingPathComponent("VERSION"), encoding: .utf8)
        let version = file.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(ToolVersion.current == version, "Sources/ComposeTool/ToolVersion.swift and VERSION differ: a release bumps both")
        #expect(version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil }, "semantic version: \(version)")
        let run = try ToolRun.run(ToolPaths.compose, ["--version"], in: ToolPaths.checkout)
        #expect(run.status == 0)
        #expect(run.output.trimmingCharacters(in: .whitespacesAndNewlines) == version)
        let changelog = try String(contentsOf: ToolPaths.checkout.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("\n## [\(version)]"), "CHANGELOG.md has an entry for \(version)")
    }

    @Test func byDefaultANewAppDependsOnComposeByGitURLAndTheToolsVersion() throws {
        let (status, manifest, errors) = try Self.manifest([])
        #expect(status == 0, "\(errors)")
        let text = try #require(manifest)
        #expect(text.contains(".package(url: \"https://github.com/compose-linux/compose\", from: \"\(ToolVersion.current)\")"), "\(text)")
        #expect(text.contains(".product(name: \"ComposeApp\", package: \"compose\")"))
        #expect(!text.contains(".package(path:"))
        #expect(!text.contains(ToolPaths.checkout.path))
    }

    @Test func composeURLChangesTheURLAndComposeVersionTheVersion() throws {
        let (status, manifest, errors) = try Self.manifest(["--compose-url", "file:///srv/git/compose-clone.git"])
        #expect(status == 0, "\(errors)")
        let text = try #require(manifest)
        #expect(text.contains(".package(url: \"file:///srv/git/compose-clone.git\", from: \"\(ToolVersion.current)\")"), "\(text)")
        #expect(text.contains(".product(name: \"ComposeApp\", package: \"compose-clone\")"))
        let pinned = try #require(try Self.manifest(["--compose-version", "0.2.0"]).manifest)
        #expect(pinned.contains(".package(url: \"https://github.com/compose-linux/compose\", from: \"0.2.0\")"))
    }

    @Test func composePathDependsOnALocalCheckoutOnlyWhenAskedFor() throws {
        let (status, manifest, errors) = try Self.manifest(["--compose-path", ToolPaths.checkout.path])
        #expect(status == 0, "\(errors)")
        #expect(manifest?.contains(".package(path: \"\(ToolPaths.checkout.standardizedFileURL.path)\")") == true, "\(manifest ?? "")")
        let both = try Self.manifest(["--compose-path", ToolPaths.checkout.path, "--compose-url", "file:///x"])
        #expect(both.status != 0)
        #expect(both.errors.contains("--compose-path depends on a local checkout"), "\(both.errors)")
    }

    /// `make install` puts the binary and its templates in PREFIX/lib/compose
    /// and links PREFIX/bin/compose to it: found on the PATH, the tool has
    /// no folder in argv[0], so it looks next to /proc/self/exe.
    @Test func theMakefileInstallsTheBinaryWithItsTemplates() throws {
        let makefile = try String(contentsOf: ToolPaths.checkout.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("PREFIX ?= /usr/local"))
        #expect(makefile.contains("\ninstall:"))
        #expect(makefile.contains("Compose_ComposeTemplates.resources"))
        #expect(ComposeTemplatesSearch.firstPlaceIsTheRealExecutablesFolder())
    }
}

enum ComposeTemplatesSearch {
    /// The first place searched is next to /proc/self/exe.
    static func firstPlaceIsTheRealExecutablesFolder() -> Bool {
        guard let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return true }
        let folder = URL(fileURLWithPath: real).deletingLastPathComponent().path
        return TemplateFiles.searched.first?.hasPrefix(folder + "/") == true
    }
}
