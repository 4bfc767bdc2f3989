@testable import ComposeTool
import Foundation
import Testing

/// What issue #29 found in every scaffolded app: a root named
/// `AppComponent` (logs `app=app`, event paths `app.server...` for every
/// daemon) and lifecycle messages printed while the runtime logs.
@Suite struct ScaffoldNamingTests {
    /// The generated files of `compose new NAME` with `options`, by path.
    static func generate(_ name: String, _ options: [String] = []) throws -> [String: String] {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", name, "--compose-path", ToolPaths.checkout.path] + options, in: folder)
        #expect(run.status == 0, "\(run.errors)")
        let app = folder.appendingPathComponent(name)
        var files: [String: String] = [:]
        for path in ToolPaths.files(in: app) {
            files[path] = try String(contentsOf: app.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    @Test(arguments: ["app", "daemon", "terminal"])
    func theRootComponentIsNamedAfterTheApp(_ kind: String) throws {
        let files = try Self.generate("Notes", ["--kind", kind])
        // The folder and file names stay the README's predictable structure.
        let root = try #require(files["Sources/Notes/Components/App/App.swift"])
        #expect(root.contains("struct NotesComponent: "))
        #expect(files["Sources/Notes/Components/App/App+Observers.swift"]?.contains("extension NotesComponent {") == true)
        #expect(files["Sources/Notes/Components/App/App+Startup.swift"]?.contains("extension NotesComponent: StartupComponent {") == true)
        #expect(files["Tests/NotesTests/AppTests.swift"]?.contains("TestApp(NotesComponent.self") == true)
        for (path, text) in files {
            #expect(!text.contains("AppComponent"), "\(path) still names AppComponent")
        }
    }

    /// `ComponentTree.defaultLabel` drops `Component` and lowercases the
    /// first letter: the label the runtime puts in `app=` and event paths.
    @Test(arguments: [("Notes", "notes"), ("KVResp", "kVResp"), ("Echo2", "echo2")])
    func theRootsLabelIsTheAppsNameAsTheRuntimeDerivesIt(_ name: String, _ label: String) {
        #expect(Scaffolds.rootType(for: name) == name + "Component")
        #expect(Scaffolds.rootLabel(for: name) == label)
    }

    /// The same names as `ConfigOptions.EnvironmentPrefix.appName` gives
    /// (ConfigurationTests checks those with the runtime's own code).
    @Test(arguments: [("Notes", "NOTES"), ("HitCounterApp", "HIT_COUNTER_APP"), ("KVResp", "KVRESP"), ("Echo2", "ECHO2")])
    func theDaemonNamesItsVariablesWithTheAppsPrefix(_ name: String, _ prefix: String) throws {
        #expect(Scaffolds.environmentPrefix(for: name) == prefix)
        let files = try Self.generate(name, ["--kind", "daemon"])
        #expect(files["Sources/\(name)/Components/App/App.swift"]?.contains("the environment (`\(prefix)_PORT=9000`)") == true)
    }

    @Test func aDaemonLogsItsLifecycleThroughTheAppsLogger() throws {
        let files = try Self.generate("Echo", ["--kind", "daemon"])
        let sources = files.filter { $0.key.hasPrefix("Sources/") }
        for (path, text) in sources {
            #expect(!text.contains("print("), "\(path) prints instead of logging")
        }
        #expect(sources["Sources/Echo/Components/Server/Server+Observers.swift"]?.contains("Application.logger.info(\"Listening on") == true)
        #expect(sources["Sources/Echo/Components/Server/Server+Observers.swift"]?.contains("Application.logger.error(\"Cannot listen") == true)
        #expect(sources["Sources/Echo/Components/App/App+Observers.swift"]?.contains("Application.logger.info(\"Shutting down.\")") == true)
        #expect(files["Tests/EchoTests/AppTests.swift"]?.contains("app.logs.contains { $0.message == \"Listening on 127.0.0.1:9000\" }") == true)
    }

    /// An app named after a component its template declares, or whose root
    /// would be a type of Compose, would not build.
    @Test(arguments: [
        (["Server", "--kind", "daemon"], "the daemon already has a ServerComponent"),
        (["Connection", "--kind", "daemon"], "the daemon already has a ConnectionComponent"),
        (["Home"], "the app already has a HomeComponent"),
        (["About", "--kind", "terminal"], "the terminal already has a AboutComponent"),
        (["Lazy"], "LazyComponent, which is a type of Compose"),
        (["Startup"], "StartupComponent, which is a type of Compose"),
    ])
    func anAppWhoseRootWouldClashIsRefused(_ arguments: [String], _ reason: String) throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new"] + arguments + ["--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(run.status != 0)
        #expect(run.errors.contains(reason), "\(run.errors)")
        #expect(ToolPaths.files(in: folder).isEmpty)
    }

    /// A daemon named like a component of the app kind is fine, and the
    /// other way round.
    @Test func aNameOnlyTheOtherKindUsesIsAccepted() throws {
        #expect(try Self.generate("Server", ["--kind", "app"])["Sources/Server/Components/App/App.swift"]?.contains("struct ServerComponent: RouterComponent") == true)
        #expect(try Self.generate("Home", ["--kind", "daemon"])["Sources/Home/Components/App/App.swift"]?.contains("struct HomeComponent: Component") == true)
    }

    /// A bad `--parent` suggested `Sources/App/Components/App/App.swift`
    /// whatever the app's module.
    @Test func aMissingParentSuggestsTheAppsOwnRootFile() throws {
        let app = try RoughEdgeTests.newApp("Notes")
        let run = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--parent", "Nowhere.swift"], in: app)
        #expect(run.status != 0)
        #expect(run.errors.contains("such as Sources/Notes/Components/App/App.swift"), "\(run.errors)")
        #expect(!run.errors.contains("Sources/App/"))
    }

    /// The `--parent` edit finds the root in Components/App whatever its
    /// type is called.
    @Test func aComponentIsAddedToTheRootByItsFolder() throws {
        let app = try RoughEdgeTests.newApp("Notes")
        let run = try ToolRun.run(ToolPaths.compose, ["component", "Profile", "--parent", "Sources/Notes/Components/App"], in: app)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Added to NotesComponent in Sources/Notes/Components/App:\n  let profile = ProfileComponent()"), "\(run.output)")
        let root = try String(contentsOf: app.appendingPathComponent("Sources/Notes/Components/App/App.swift"), encoding: .utf8)
        #expect(root.contains("    let profile = ProfileComponent()\n"))
    }
}
