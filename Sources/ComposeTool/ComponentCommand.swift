import ArgumentParser
import Foundation

/// `compose component NAME`: a component's three files in an existing app.
struct ComponentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "component",
        abstract: "Add a component to the Compose app in this folder.",
        discussion: """
        Writes Components/NAME/NAME.swift (the component, its @Store and
        emitters), NAME+Observers.swift (writing the store, following
        $state) and NAME+State.swift (the state and its validation) in the
        app's module. The app is found from the current folder upwards (a
        Package.swift next to Sources/*/Components).

        Examples:
          compose component Profile
          compose component Settings --router
          compose component Editor --lazy --in Profile
        """
    )

    @Argument(help: "The component's name: a Swift type name (Profile makes ProfileComponent).")
    var name: String

    @Flag(help: "Make a RouterComponent with a router starting on itself.")
    var router = false

    @Flag(help: "Make a component meant to be held in a LazyComponent.")
    var lazy = false

    @Option(name: .customLong("in"), help: "A folder under Components/ to put it in (for example Home).")
    var folder: String?

    @Flag(help: "Print the files that would be written, and write nothing.")
    var dryRun = false

    @Flag(help: "Overwrite files that exist.")
    var force = false

    func validate() throws {
        if let problem = NameValidator.problem(with: baseName) {
            throw ValidationError("Invalid component name: \(problem).")
        }
        if router, lazy {
            throw ValidationError("Choose --router or --lazy, not both.")
        }
        if let folder, folder.contains("..") || folder.hasPrefix("/") {
            throw ValidationError("--in takes a folder inside Components/, such as Home; got \(folder).")
        }
    }

    /// The name without a trailing "Component".
    var baseName: String {
        name.hasSuffix("Component") && name.count > "Component".count ? String(name.dropLast("Component".count)) : name
    }

    func run() async throws {
        let project = try ProjectLocator.find(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let renderer = try await TemplateRenderer.load()
        let scaffold = try Scaffolds.component(name: baseName, router: router, lazy: lazy, folder: folder, project: project, renderer: renderer)
        try Report.finish(scaffold, dryRun: dryRun, force: force, nextSteps: [])
    }
}
