import ArgumentParser
import Foundation

/// `compose new NAME`: a new SwiftPM package that builds and runs as is.
struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new Compose app.",
        usage: """
        compose new <name> [--kind <kind>] [--systemd [--workers <workers>]]
                    [--http] [--container] [--path <path>]
                    [--compose-url <compose-url>] [--compose-version <version>]
                    [--compose-path <path>]
                    [--dry-run] [--force]
        """,
        discussion: """
        Creates a SwiftPM package named NAME in the folder NAME (or --path).
        The root component is named after the app (Notes: NotesComponent),
        so its logs say app=notes and its event paths start with notes.

          Package.swift
          Sources/NAME/Components/App/App.swift, App+Observers.swift, App+Startup.swift
                                           the root component, NAMEComponent
                                           (and App+View.swift: terminal)
          Sources/NAME/Components/...      the screens (app, terminal) or
                                           server (daemon)
          Sources/NAME/Services/           shared services (a greeting)
          Tests/NAMETests/AppTests.swift   a test of the root component
          NAME.service, NAME.socket        systemd units (--systemd)
          Sources/NAME/Components/HTTP/, Hello/, Tests/NAMETests/HTTPTests.swift
                                           an HTTP server: /healthz, /readyz
                                           and a route (--http)
          Containerfile, deploy/NAME.yaml  an image and a Kubernetes
                                           Deployment (--container)

        By default the package depends on Compose by git URL and version
        (\(Scaffolds.defaultComposeURL), from \(ToolVersion.current), this
        tool's version), so it builds anywhere; --compose-path depends on a
        local checkout instead. It then checks that swift (6.1 or later) and
        libuv (pkg-config libuv) are installed, and says how to install what
        is missing.

        Examples:
          compose new Notes
          compose new Notes --kind terminal
          compose new Echo --kind daemon --path ~/src/echo
          compose new Echo --kind daemon --systemd --workers 2
          compose new Echo --http --container
          compose new Notes --compose-url file:///home/you/src/compose
          compose new Notes --compose-path ../compose
        """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case app
        case daemon
        case terminal
    }

    @Argument(help: "The app's name: a Swift type name, used for the package, its module and its folder.")
    var name: String

    @Option(help: "The folder to create (default: ./NAME). It must not exist or must be empty.")
    var path: String?

    @Option(help: "app: a router between two screens driven by standard input; terminal: the same as a terminal app (views, key bindings, a help line); daemon: a TCP server (default: app, or daemon with --systemd, --http or --container).")
    var kind: Kind?

    @Flag(help: "With a daemon, write NAME.service (Type=notify, watchdog, restart on failure) and NAME.socket.")
    var systemd = false

    @Option(help: "With --systemd, the service starts N worker processes on one port.")
    var workers: Int?

    @Flag(help: "With a daemon, serve HTTP too (ComposeHTTP): /healthz, /readyz and an example route, with its test (ComposeHTTPTesting).")
    var http = false

    @Flag(help: "With --http (implied), write a Containerfile and deploy/NAME.yaml (a Kubernetes Deployment and Service probing /healthz and /readyz).")
    var container = false

    @Option(help: "Depend on Compose at this git URL (default: \(Scaffolds.defaultComposeURL)).")
    var composeUrl: String?

    @Option(help: "The version of Compose to depend on, from the git URL (default: \(ToolVersion.current)).")
    var composeVersion: String?

    @Option(help: "Depend on the local Compose checkout at this path instead of a git URL.")
    var composePath: String?

    @Flag(help: "Print the files that would be written, and write nothing.")
    var dryRun = false

    @Flag(help: "Overwrite files that exist.")
    var force = false

    func validate() throws {
        if let problem = NameValidator.problem(with: name) {
            throw ValidationError("Invalid app name: \(problem).")
        }
        let kind = resolvedKind
        let root = Scaffolds.rootType(for: name)
        if NameValidator.composeTypes.contains(root) {
            throw ValidationError("Invalid app name: the root component would be \(root), which is a type of Compose; give another name, such as My\(name).")
        }
        if Scaffolds.templateComponents[kind, default: []].contains(name) {
            throw ValidationError("Invalid app name: the root component would be \(root), and the \(kind.rawValue) already has a \(root); give another name, such as My\(name).")
        }
        if systemd, let kind = self.kind, kind != .daemon {
            throw ValidationError("--systemd writes units for a daemon: use --kind daemon (or leave --kind out).")
        }
        if http || container, let kind = self.kind, kind != .daemon {
            throw ValidationError("\(container ? "--container" : "--http") makes a daemon that serves HTTP: use --kind daemon (or leave --kind out).")
        }
        if http || container, Scaffolds.httpComponents.contains(name) {
            throw ValidationError("Invalid app name: the root component would be \(root), and --http already adds a \(root); give another name, such as My\(name).")
        }
        if container, Scaffolds.kubernetesName(for: name).count > 63 {
            throw ValidationError("Invalid app name for --container: Kubernetes names are at most 63 characters (\(Scaffolds.kubernetesName(for: name)) has \(Scaffolds.kubernetesName(for: name).count)); give a shorter name.")
        }
        if let workers {
            guard systemd else { throw ValidationError("--workers goes with --systemd (the service's ExecStart passes it on).") }
            guard (1...256).contains(workers) else { throw ValidationError("--workers takes 1 to 256; got \(workers).") }
        }
        if composePath != nil, composeUrl != nil || composeVersion != nil {
            throw ValidationError("--compose-path depends on a local checkout: give it without --compose-url and --compose-version.")
        }
    }

    func run() async throws {
        let root = URL(fileURLWithPath: path ?? name, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ScaffoldError("\(root.path) exists and is a file; choose another --path.")
            }
            let contents = try FileManager.default.contentsOfDirectory(atPath: root.path)
            if !contents.isEmpty, !force {
                throw ScaffoldError("\(root.path) exists and is not empty, so nothing was written. Choose another --path, or use --force to write into it.")
            }
        }
        let dependency = try composeDependency()
        let renderer = try await TemplateRenderer.load()
        let units = systemd ? Scaffolds.Units(workers: workers) : nil
        let httpOptions = http || container ? Scaffolds.HTTPOptions(container: container) : nil
        let scaffold = try Scaffolds.app(
            name: name, kind: resolvedKind, root: root, dependency: dependency, units: units, http: httpOptions, renderer: renderer
        )
        var steps = ["cd \(path ?? name)", "swift run \(name)", "swift test"]
        if httpOptions != nil { steps.append("curl localhost:\(Scaffolds.httpPort)/hello/you (while it runs)") }
        if systemd { steps.append("read \(name).service to install the units") }
        if container { steps.append("read Containerfile and deploy/\(name).yaml (build the image, set its name)") }
        let missing = ToolchainCheck(environment: ProcessInfo.processInfo.environment).problems()
        try Report.finish(scaffold, dryRun: dryRun, force: force, nextSteps: steps, warnings: missing)
    }

    /// The kind asked for, or the one the options imply: a daemon with
    /// `--systemd`, `--http` or `--container`, else an app.
    private var resolvedKind: Kind {
        kind ?? (systemd || http || container ? .daemon : .app)
    }

    /// The dependency line and the package identity products refer to.
    private func composeDependency() throws -> Scaffolds.Dependency {
        guard let composePath else {
            let url = composeUrl ?? Scaffolds.defaultComposeURL
            let identity = URL(string: url)?.deletingPathExtension().lastPathComponent.lowercased() ?? "compose"
            return .init(line: ".package(url: \"\(url)\", from: \"\(composeVersion ?? ToolVersion.current)\")", package: identity.isEmpty ? "compose" : identity)
        }
        let checkout = URL(fileURLWithPath: composePath, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        guard FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Package.swift").path) else {
            throw ScaffoldError("No Package.swift in \(checkout.path): --compose-path must be a Compose checkout.")
        }
        return .init(line: ".package(path: \"\(checkout.path)\")", package: checkout.lastPathComponent.lowercased())
    }
}
