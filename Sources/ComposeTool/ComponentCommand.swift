import ArgumentParser
import Foundation

/// `compose component NAME`: a component's three files in an existing app.
struct ComponentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "component",
        abstract: "Add a component to the Compose app in this folder.",
        usage: """
        compose component <name> [--router | --lazy] [--in <folder>]
                          [--parent <parent>] [--dry-run] [--force]
        """,
        discussion: """
        Writes Components/NAME/NAME.swift (the component, its @Store and
        emitters), NAME+Observers.swift (writing the store, following
        $state) and NAME+State.swift (the state and its validation) in the
        app's module. The app is found from the current folder upwards (a
        Package.swift next to Sources/*/Components).

        With --parent, adds `let name = NAMEComponent()` to the parent
        component's struct, or, when its file is not simple enough to edit
        safely, prints the line to add.

        Examples:
          compose component Profile --parent Sources/Notes/Components/App
          compose component Settings --router
          compose component Editor --lazy --in Home
        """
    )

    @Argument(help: "The component's name: a Swift type name (Profile makes ProfileComponent).")
    var name: String

    @Flag(help: "Make a RouterComponent with a router starting on itself.")
    var router = false

    @Flag(help: "Make a component meant to be held in a LazyComponent.")
    var lazy = false

    @Option(name: .customLong("in"), help: ArgumentHelp("A folder under Components/ to put it in (for example Home).", valueName: "folder"))
    var folder: String?

    @Option(help: "The parent component's file (or its folder) to add the new component to.")
    var parent: String?

    @Flag(help: "Print the files that would be written, and write nothing.")
    var dryRun = false

    @Flag(help: "Overwrite files that exist.")
    var force = false

    func validate() throws {
        if let problem = NameValidator.problem(with: name) ?? NameValidator.problem(with: baseName) {
            throw ValidationError("Invalid component name: \(problem).")
        }
        if let problem = ["Component", "State"].lazy.compactMap({ self.clash(self.baseName + $0) }).first {
            throw ValidationError("Invalid component name: \(problem).")
        }
        if router, lazy {
            throw ValidationError("Choose --router or --lazy, not both.")
        }
        if let folder, folder.contains("..") || folder.hasPrefix("/") {
            throw ValidationError("--in takes a folder inside Components/, such as Home; got \(folder).")
        }
    }

    /// Why the generated type `type` cannot be declared, or `nil`.
    private func clash(_ type: String) -> String? {
        NameValidator.composeTypes.contains(type) ? "it makes \(type), which is a type of Compose; give another name" : nil
    }

    /// The name without a trailing "Component".
    var baseName: String {
        name.hasSuffix("Component") && name.count > "Component".count ? String(name.dropLast("Component".count)) : name
    }

    func run() async throws {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let project = try ProjectLocator.find(from: here)
        let renderer = try await TemplateRenderer.load()
        let scaffold = try Scaffolds.component(name: baseName, router: router, lazy: lazy, folder: folder, project: project, renderer: renderer)

        // A type the app declares already, outside the component's own
        // files (which exist only to be refused or, with --force,
        // overwritten), would be declared twice.
        let declared = TypeDeclarations(in: project, skipping: Set(scaffold.files.map(\.path)))
        for type in [baseName + "Component", baseName + "State"] {
            if let file = declared.file(declaring: type) {
                throw ScaffoldError("\(file) already declares \(type), so nothing was written. Choose another name.")
            }
        }

        let line = Scaffolds.parentDeclaration(for: baseName, lazy: lazy)
        var change: Report.ParentChange?
        var steps: [String] = []
        if let parent {
            change = try parentChange(parent, relativeTo: here, project: project, scaffold: scaffold, line: line)
        } else {
            steps = [
                "Add it to its parent component's stored properties:",
                "  \(line)",
                "(compose component \(name) --parent PATH adds it for you.)",
            ]
        }
        try Report.finish(scaffold, dryRun: dryRun, force: force, parent: change, nextSteps: steps)
    }

    /// The planned edit of the parent's file: `path` names the file, or a
    /// folder holding `FOLDER.swift` (Components/Home: Home/Home.swift).
    private func parentChange(_ path: String, relativeTo here: URL, project: Project, scaffold: Scaffold, line: String) throws -> Report.ParentChange {
        var url = URL(fileURLWithPath: path, relativeTo: here).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            url = url.appendingPathComponent(url.lastPathComponent + ".swift")
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ScaffoldError("--parent: there is no file \(url.path), so nothing was written. Give the parent component's file, such as \(project.componentsFolder)/App/App.swift.")
        }
        if scaffold.files.contains(where: { scaffold.root.appendingPathComponent($0.path).standardizedFileURL.path == url.path }) {
            throw ScaffoldError("--parent: \(path) is one of the files this command writes; give the parent component's file.")
        }
        let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        let plan: ParentEditor.Plan
        if size > ParentEditor.byteLimit {
            plan = .manual(reason: "the file is larger than \(ParentEditor.byteLimit) bytes", type: nil, line: line)
        } else {
            plan = ParentEditor.plan(for: try String(contentsOf: url, encoding: .utf8), property: Scaffolds.property(for: baseName), declaration: line)
        }
        return Report.ParentChange(shownPath: path, url: url, plan: plan)
    }
}
