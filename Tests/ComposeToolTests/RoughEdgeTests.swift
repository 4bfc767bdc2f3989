@testable import ComposeTool
import Foundation
import Testing

/// The rough edges issue #18 found trying the tool as a new user, one test
/// each.
@Suite struct RoughEdgeTests {
    /// A new app in a temporary folder; returns its root.
    static func newApp(_ name: String = "Notes") throws -> URL {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", name, "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(run.status == 0, "\(run.errors)")
        return folder.appendingPathComponent(name)
    }

    /// `compose component profileComponent` was accepted.
    @Test func aLowercaseTypeNameIsRefusedWithTheFixedName() throws {
        let app = try Self.newApp()
        let before = ToolPaths.files(in: app)
        let run = try ToolRun.run(ToolPaths.compose, ["component", "profileComponent"], in: app)
        #expect(run.status != 0)
        #expect(run.errors.contains("did you mean ProfileComponent?"), "\(run.errors)")
        #expect(ToolPaths.files(in: app) == before)
        let new = try ToolRun.run(ToolPaths.compose, ["new", "notes"], in: app.deletingLastPathComponent())
        #expect(new.errors.contains("did you mean Notes?"), "\(new.errors)")
    }

    /// `--dry-run` exited 0 when the real run would refuse.
    @Test func dryRunExitsWithTheRealRunsStatus() throws {
        let app = try Self.newApp()
        let cases: [[String]] = [
            ["component", "Profile"],                          // writes
            ["component", "Home"],                             // HomeComponent exists
            ["component", "profile"],                          // not a type name
            ["component", "Other", "--parent", "Nowhere.swift"],
            ["new", "Notes", "--path", app.path],              // not empty
        ]
        for arguments in cases {
            let before = ToolPaths.files(in: app)
            let dry = try ToolRun.run(ToolPaths.compose, arguments + ["--dry-run"], in: app)
            #expect(ToolPaths.files(in: app) == before, "\(arguments): a dry run writes nothing")
            let real = try ToolRun.run(ToolPaths.compose, arguments, in: app)
            #expect(dry.status == real.status, "\(arguments): dry \(dry.status), real \(real.status)")
            #expect(dry.errors == real.errors, "\(arguments)")
        }
        // --force over the files that exist: the dry run says so.
        let dry = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--force", "--dry-run"], in: app)
        #expect(dry.status == 0)
        #expect(dry.output.contains("Would overwrite 3 existing file(s)."))
    }

    /// `compose component` wrote files but neither wired the component
    /// into its parent nor said how.
    @Test func componentIsAddedToItsParentOrSaysHow() throws {
        let app = try Self.newApp()
        let parent = app.appendingPathComponent("Sources/Notes/Components/Home/Home.swift")
        let added = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--parent", "Sources/Notes/Components/Home"], in: app)
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains("Added to HomeComponent in Sources/Notes/Components/Home:\n  let profile = ProfileComponent()"))
        #expect(try String(contentsOf: parent, encoding: .utf8).contains("""
            @Store(persistedAs: "home") var state = HomeState()
            let profile = ProfileComponent()
        }
        """))

        let lazy = try ToolRun.run(ToolPaths.compose, ["component", "Editor", "--lazy", "--parent", parent.path], in: app)
        #expect(lazy.status == 0, "\(lazy.errors)")
        #expect(try String(contentsOf: parent, encoding: .utf8).contains("    let editor = LazyComponent(EditorComponent())\n}"))

        // A parent the tool cannot edit safely is left alone; the line is
        // printed instead.
        let tricky = app.appendingPathComponent("Sources/Notes/Components/About/About.swift")
        let original = try String(contentsOf: tricky, encoding: .utf8) + "\nlet banner = \"\"\"\n}\n\"\"\"\n"
        try Data(original.utf8).write(to: tricky)
        let manual = try ToolRun.run(ToolPaths.compose, ["component", "Credits", "--parent", tricky.path], in: app)
        #expect(manual.status == 0, "\(manual.errors)")
        #expect(manual.output.contains("Did not edit \(tricky.path): it has a multi-line or raw string literal"))
        #expect(manual.output.contains("Add this line to the stored properties of the parent component:\n  let credits = CreditsComponent()"))
        #expect(try String(contentsOf: tricky, encoding: .utf8) == original)

        // Without --parent, it says what to add and where.
        let plain = try ToolRun.run(ToolPaths.compose, ["component", "Settings"], in: app)
        #expect(plain.output.contains("Add it to its parent component's stored properties:\n    let settings = SettingsComponent()"))
    }

    /// A name the app already declares is refused before anything is
    /// written; --force over the component's own files is not a clash.
    @Test func aTypeTheAppDeclaresIsRefused() throws {
        let app = try Self.newApp()
        let before = ToolPaths.files(in: app)
        let run = try ToolRun.run(ToolPaths.compose, ["component", "Home", "--in", "Other"], in: app)
        #expect(run.status != 0)
        #expect(run.errors.contains("Sources/Notes/Components/Home/Home.swift already declares HomeComponent"), "\(run.errors)")
        #expect(ToolPaths.files(in: app) == before)
        for name in ["Router", "Lazy", "Instance", "Startup"] {
            let compose = try ToolRun.run(ToolPaths.compose, ["component", name], in: app)
            #expect(compose.status != 0, "\(name)")
            #expect(compose.errors.contains("Compose"), "\(name): \(compose.errors)")
        }
        _ = try ToolRun.run(ToolPaths.compose, ["component", "Profile"], in: app)
        let again = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--force"], in: app)
        #expect(again.status == 0, "\(again.errors)")
    }

    /// `--router` wrote a `+State` file nothing used: every file the tool
    /// writes declares or extends a type another file uses.
    @Test(arguments: [[], ["--router"], ["--lazy"]])
    func everyWrittenFileIsReferenced(_ variant: [String]) throws {
        let app = try Self.newApp()
        let run = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--parent", "Sources/Notes/Components/App/App.swift"] + variant, in: app)
        #expect(run.status == 0, "\(run.errors)")
        let written = CommandTests.writtenLists(in: run.output).first ?? []
        #expect(written.count == 3)
        let module = app.appendingPathComponent("Sources/Notes")
        let sources = try ToolPaths.files(in: module).filter { $0.hasSuffix(".swift") }.map {
            ("Sources/Notes/" + $0, try String(contentsOf: module.appendingPathComponent($0), encoding: .utf8))
        }
        for path in written {
            let text = try String(contentsOf: app.appendingPathComponent(path), encoding: .utf8)
            let declared = TypeDeclarations.declaredTypes(in: text)
            let extended = text.split(separator: "\n").filter { $0.hasPrefix("extension ") }.map { String($0.dropFirst("extension ".count).prefix(while: { $0.isLetter || $0.isNumber })) }
            let others = sources.filter { $0.0 != path }.map(\.1)
            let used = declared.contains { type in others.contains { $0.contains(type) } }
                || extended.contains { type in others.contains { TypeDeclarations.declaredTypes(in: $0).contains(type) } }
            #expect(used, "\(variant): nothing uses \(path) (declares \(declared), extends \(extended))")
        }
    }

    /// The README said `uv_tcp_bind failed` where the loop reports
    /// `uv_listen failed` (libuv reports EADDRINUSE at listen, not bind;
    /// TestAppTCPTests and TestAppOutgoingTCPTests assert the real text).
    /// That paragraph is now in the Tutorial article; neither the README
    /// nor any article may quote the wrong text.
    @Test func theDocumentationQuotesTheRealListenError() throws {
        let checkout = ToolPaths.checkout
        let readme = try String(contentsOf: checkout.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!readme.contains("uv_tcp_bind failed"))
        for article in ["Tutorial", "DaemonsAndIO"] {
            let text = try String(contentsOf: checkout.appendingPathComponent("Sources/ComposeApp/ComposeApp.docc/\(article).md"), encoding: .utf8)
            #expect(!text.contains("uv_tcp_bind failed"), "\(article).md")
            let flowing = text.replacingOccurrences(of: "\n", with: " ")
            #expect(flowing.contains("`uv_listen failed: EADDRINUSE (address already in use) for 127.0.0.1:7070`"), "\(article).md")
        }
        let server = try String(contentsOf: ToolPaths.checkout.appendingPathComponent("Sources/ComposeApp/TCP/TCPServer.swift"), encoding: .utf8)
        #expect(!server.contains("uv_tcp_bind failed: EADDRINUSE"), "TCPServer.listen()'s documentation")
    }

    /// STYLE says `InternalImportsByDefault` is on, but Package.swift did
    /// not enable it; and the tools version must be the one the manifest's
    /// features need (package traits, used for swift-configuration, came
    /// with 6.1).
    @Test func thePackageEnablesWhatStyleSaysAndNeedsItsToolsVersion() throws {
        let manifest = try String(contentsOf: ToolPaths.checkout.appendingPathComponent("Package.swift"), encoding: .utf8)
        let firstLine = manifest.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine == "// swift-tools-version: 6.1")
        #expect(manifest.contains("traits: ["))
        for feature in ["ExistentialAny", "MemberImportVisibility", "InternalImportsByDefault"] {
            #expect(manifest.contains(".enableUpcomingFeature(\"\(feature)\")"), "\(feature)")
        }
        // Every target takes the strict settings.
        let targets = manifest.components(separatedBy: ".target(").count - 1
            + manifest.components(separatedBy: ".executableTarget(").count - 1
            + manifest.components(separatedBy: ".testTarget(").count - 1
        #expect(manifest.components(separatedBy: "swiftSettings: strictSettings").count - 1 == targets)
    }
}
