import Foundation
import Testing

/// The tool's behaviour on good and bad input, run as a process.
@Suite struct CommandTests {
    @Test func aNameThatIsNotATypeNameIsRefusedAndNothingIsWritten() throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", "my-app"], in: folder)
        #expect(run.status != 0)
        #expect(run.errors.contains("Invalid app name: \"my-app\" contains \"-\""))
        #expect(ToolPaths.files(in: folder).isEmpty)
    }

    @Test func aKeywordIsRefused() throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", "protocol"], in: folder)
        #expect(run.status != 0)
        #expect(run.errors.contains("is a Swift keyword"))
        #expect(ToolPaths.files(in: folder).isEmpty)
    }

    @Test func aFolderThatIsNotEmptyIsRefused() throws {
        let folder = try ToolPaths.temporaryFolder()
        let target = folder.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: target.appendingPathComponent("notes.txt"))
        let run = try ToolRun.run(ToolPaths.compose, ["new", "Notes", "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(run.status != 0)
        #expect(run.errors.contains("exists and is not empty, so nothing was written"))
        #expect(ToolPaths.files(in: target) == ["notes.txt"])
    }

    @Test func newPrintsEveryFileItWrote() throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", "Notes", "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(run.status == 0, "\(run.errors)")
        let printed = run.output.split(separator: "\n")
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("  cd ") && !$0.hasPrefix("  swift ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .sorted()
        #expect(printed == ToolPaths.files(in: folder.appendingPathComponent("Notes")))
        #expect(printed.contains("Sources/Notes/Components/App/App+Startup.swift"))
        #expect(printed.contains("Tests/NotesTests/AppTests.swift"))
        #expect(printed.contains("Sources/Notes/Components/Home/Home+State.swift"))
        let manifest = try String(contentsOf: folder.appendingPathComponent("Notes/Package.swift"), encoding: .utf8)
        #expect(manifest.contains(".product(name: \"ComposePersistence\""))
    }

    @Test func dryRunListsTheFilesAndWritesNothing() throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", "Echo", "--kind", "daemon", "--dry-run", "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Would write"))
        #expect(run.output.contains("Sources/Echo/Components/Connection/Connection.swift"))
        #expect(ToolPaths.files(in: folder).isEmpty)
    }

    @Test func componentAddsThreeFilesAndNeverOverwritesWithoutForce() throws {
        let folder = try ToolPaths.temporaryFolder()
        _ = try ToolRun.run(ToolPaths.compose, ["new", "Notes", "--compose-path", ToolPaths.checkout.path], in: folder)
        let app = folder.appendingPathComponent("Notes")
        let inside = app.appendingPathComponent("Sources/Notes/Components/Home")

        let first = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--router", "--in", "Home"], in: inside)
        #expect(first.status == 0, "\(first.errors)")
        let written = ["Profile.swift", "Profile+Observers.swift", "Profile+State.swift"].map { "Sources/Notes/Components/Home/Profile/\($0)" }
        for path in written {
            #expect(first.output.contains(path))
            #expect(FileManager.default.fileExists(atPath: app.appendingPathComponent(path).path))
        }

        let marker = app.appendingPathComponent(written[0])
        try Data("// mine".utf8).write(to: marker)
        let second = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--in", "Home"], in: app)
        #expect(second.status != 0)
        #expect(second.errors.contains("already exist, so nothing was written"))
        #expect(try String(contentsOf: marker, encoding: .utf8) == "// mine")

        let forced = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--in", "Home", "--force"], in: app)
        #expect(forced.status == 0)
        #expect(try String(contentsOf: marker, encoding: .utf8).contains("struct ProfileComponent"))
    }

    /// The files the "Starting a new app" article (once README.md's "Start
    /// a new app") shows the tool printing are those it writes, in the
    /// order it prints them.
    @Test func theArticleListsTheFilesTheToolWrites() throws {
        let article = try String(contentsOf: ToolPaths.checkout.appendingPathComponent("Sources/ComposeApp/ComposeApp.docc/StartingANewApp.md"), encoding: .utf8)
        let shown = Self.writtenLists(in: article)
        #expect(shown.count == 2, "StartingANewApp.md shows `compose new` and `compose component` output")

        let folder = try ToolPaths.temporaryFolder()
        let new = try ToolRun.run(ToolPaths.compose, ["new", "Notes", "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(new.status == 0, "\(new.errors)")
        let component = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--router", "--parent", "Sources/Notes/Components/App"], in: folder.appendingPathComponent("Notes"))
        #expect(component.status == 0, "\(component.errors)")
        #expect(shown == Self.writtenLists(in: new.output) + Self.writtenLists(in: component.output))
    }

    /// The paths listed after each "Wrote, in ...:" line, up to "Next:" or
    /// the end of the list.
    static func writtenLists(in text: String) -> [[String]] {
        var lists: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Wrote, in ") {
                current = []
            } else if current != nil, line.hasPrefix("  ") {
                current?.append(line.trimmingCharacters(in: .whitespaces))
            } else if let list = current {
                lists.append(list)
                current = nil
            }
        }
        if let current { lists.append(current) }
        return lists
    }

    @Test func componentOutsideAnAppSaysSo() throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["component", "Profile"], in: folder)
        #expect(run.status != 0)
        #expect(run.errors.contains("is not inside a Compose app"))
        #expect(ToolPaths.files(in: folder).isEmpty)
    }

    @Test func everyCommandHasHelpWithAnExample() throws {
        let folder = try ToolPaths.temporaryFolder()
        for arguments in [["--help"], ["new", "--help"], ["component", "--help"], ["inspect", "--help"]] {
            let run = try ToolRun.run(ToolPaths.compose, arguments, in: folder)
            #expect(run.status == 0)
            #expect(run.output.contains("Examples:"), "\(arguments)")
        }
    }
}
