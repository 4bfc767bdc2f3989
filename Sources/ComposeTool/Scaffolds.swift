import Foundation

/// What `new` and `component` write: template name → destination.
enum Scaffolds {
    struct Dependency {
        /// The `.package(...)` line of the generated Package.swift.
        let line: String
        /// The package identity products are looked up in.
        let package: String
    }

    /// Where a new app gets Compose from by default (`--compose-url`
    /// changes it).
    static let defaultComposeURL = "https://github.com/compose-linux/compose"

    /// systemd units written next to a daemon (`compose new --systemd`).
    struct Units {
        /// Worker processes the service starts (`--workers N`), or `nil`.
        var workers: Int?
    }

    /// The port the daemon template listens on by default, and so the
    /// socket unit's.
    static let daemonPort = 8080

    /// The port of the daemon's HTTP server (`compose new --http`) by
    /// default: its health endpoints and routes.
    static let httpPort = 8081

    /// What the daemon serves besides its line server (`--http`,
    /// `--container`).
    struct HTTPOptions {
        /// Write a Containerfile and a Kubernetes Deployment and Service.
        var container = false
    }

    /// The numbers deploy/NAME.yaml and the Containerfile state, in
    /// seconds. The runtime's own are `StartupConfiguration`'s defaults
    /// (the tool does not link the runtime): ContainerScaffoldTests checks
    /// that they are still the same.
    enum Container {
        /// `StartupConfiguration.drainTimeout`'s default.
        static let drainSeconds = 5
        /// `StartupConfiguration.shutdownDeadline`'s default: the whole
        /// shutdown, drain included.
        static let shutdownDeadlineSeconds = 10
        /// The preStop hook's sleep: the endpoints stop sending traffic
        /// to the pod while the app still serves.
        static let preStopSeconds = 5
        /// `terminationGracePeriodSeconds`: above preStop + the shutdown
        /// deadline, with room (SIGKILL never cuts a healthy drain short).
        static let graceSeconds = 30
    }

    /// A name Kubernetes accepts for the app's objects and image
    /// (lowercase letters, digits and `-`, RFC 1123): `HitCounter` →
    /// `hit-counter`.
    static func kubernetesName(for name: String) -> String {
        environmentPrefix(for: name).lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// The root component's type, named after the app: `Notes` →
    /// `NotesComponent`. Its file stays Components/App/App.swift (the
    /// README's predictable structure).
    static func rootType(for name: String) -> String {
        name + "Component"
    }

    /// The label the runtime gives that root (`ComponentTree.defaultLabel`:
    /// the type's name without `Component`, first letter lowercased), so
    /// the app's log lines say `app=notes` and its event paths start with
    /// `notes.`.
    static func rootLabel(for name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// The prefix of the app's environment variables
    /// (`ConfigOptions.EnvironmentPrefix.appName`): its root's label in
    /// capitals, a word starting where a lowercase letter meets an
    /// uppercase one (`NOTES`, `HIT_COUNTER` for `HitCounter`, `KVRESP`).
    static func environmentPrefix(for name: String) -> String {
        var prefix = ""
        var previous: Character?
        for character in name {
            if let previous, previous.isLowercase, character.isUppercase { prefix.append("_") }
            prefix.append(character)
            previous = character
        }
        return prefix.uppercased()
    }

    /// The components the app templates declare besides the root: an app
    /// named after one would declare its type twice.
    static let templateComponents: [NewCommand.Kind: [String]] = [
        .app: ["Home", "About"],
        .daemon: ["Server", "Connection"],
        .terminal: ["Home", "About"],
    ]

    /// The components `--http` adds to the daemon.
    static let httpComponents = ["HTTP", "Hello"]

    static func app(
        name: String, kind: NewCommand.Kind, root: URL, dependency: Dependency, units: Units? = nil,
        http: HTTPOptions? = nil, renderer: TemplateRenderer
    ) throws -> Scaffold {
        var values: [String: Any] = [
            "name": name,
            "root": rootType(for: name),
            "label": rootLabel(for: name),
            "environmentPrefix": environmentPrefix(for: name),
            "composeDependency": dependency.line,
            "composePackage": dependency.package,
            // The app kinds persist their home screen's state (JSON files).
            "persistence": kind != .daemon,
            // The terminal kind shows views (ComposeTerminal) and tests
            // them on a virtual screen (ComposeTerminalTesting).
            "terminal": kind == .terminal,
            "port": daemonPort,
        ]
        if let workers = units?.workers { values["workers"] = workers }
        if http != nil {
            values["http"] = true
            values["httpPort"] = httpPort
        }
        if http?.container == true {
            values["kubernetesName"] = kubernetesName(for: name)
            values["drainSeconds"] = Container.drainSeconds
            values["shutdownDeadlineSeconds"] = Container.shutdownDeadlineSeconds
            values["preStopSeconds"] = Container.preStopSeconds
            values["stopSeconds"] = Container.preStopSeconds + Container.shutdownDeadlineSeconds
            values["graceSeconds"] = Container.graceSeconds
        }
        let sources = "Sources/\(name)"
        var plan: [(template: String, path: String)] = [
            ("shared/Package.swift", "Package.swift"),
            ("shared/gitignore", ".gitignore"),
            ("\(kind.rawValue)/App.swift", "\(sources)/Components/App/App.swift"),
            ("\(kind.rawValue)/App+Observers.swift", "\(sources)/Components/App/App+Observers.swift"),
            ("\(kind.rawValue)/App+Startup.swift", "\(sources)/Components/App/App+Startup.swift"),
            ("shared/Greeting.swift", "\(sources)/Services/Greeting/GreetingService.swift"),
            ("\(kind.rawValue)/AppTests.swift", "Tests/\(name)Tests/AppTests.swift"),
        ]
        switch kind {
        case .app:
            plan += [
                ("app/Home.swift", "\(sources)/Components/Home/Home.swift"),
                ("app/Home+Observers.swift", "\(sources)/Components/Home/Home+Observers.swift"),
                ("app/Home+State.swift", "\(sources)/Components/Home/Home+State.swift"),
                ("app/About.swift", "\(sources)/Components/About/About.swift"),
                ("app/About+Observers.swift", "\(sources)/Components/About/About+Observers.swift"),
            ]
        case .terminal:
            plan += [
                ("terminal/App+View.swift", "\(sources)/Components/App/App+View.swift"),
                ("app/Home.swift", "\(sources)/Components/Home/Home.swift"),
                ("terminal/Home+Observers.swift", "\(sources)/Components/Home/Home+Observers.swift"),
                ("app/Home+State.swift", "\(sources)/Components/Home/Home+State.swift"),
                ("terminal/Home+View.swift", "\(sources)/Components/Home/Home+View.swift"),
                ("terminal/About.swift", "\(sources)/Components/About/About.swift"),
                ("terminal/About+View.swift", "\(sources)/Components/About/About+View.swift"),
            ]
        case .daemon:
            plan += [
                ("daemon/Server.swift", "\(sources)/Components/Server/Server.swift"),
                ("daemon/Server+Observers.swift", "\(sources)/Components/Server/Server+Observers.swift"),
                ("daemon/Connection.swift", "\(sources)/Components/Connection/Connection.swift"),
                ("daemon/Connection+Observers.swift", "\(sources)/Components/Connection/Connection+Observers.swift"),
            ]
        }
        if units != nil {
            plan += [("daemon/app.service", "\(name).service"), ("daemon/app.socket", "\(name).socket")]
        }
        if let http {
            plan += [
                ("daemon/HTTP.swift", "\(sources)/Components/HTTP/HTTP.swift"),
                ("daemon/HTTP+Observers.swift", "\(sources)/Components/HTTP/HTTP+Observers.swift"),
                ("daemon/Hello.swift", "\(sources)/Components/Hello/Hello.swift"),
                ("daemon/Hello+Observers.swift", "\(sources)/Components/Hello/Hello+Observers.swift"),
                ("daemon/HTTPTests.swift", "Tests/\(name)Tests/HTTPTests.swift"),
            ]
            if http.container {
                plan += [
                    ("daemon/Containerfile", "Containerfile"),
                    ("daemon/dockerignore", ".dockerignore"),
                    ("daemon/deployment.yaml", "deploy/\(name).yaml"),
                ]
            }
        }
        var scaffold = Scaffold(root: root)
        for entry in plan {
            scaffold.files.append(.init(path: entry.path, contents: try renderer.render(entry.template, values), template: entry.template))
        }
        return scaffold
    }

    /// The parent's property holding component `name`: `Profile` →
    /// `profile`.
    static func property(for name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// The line that holds component `name` in its parent.
    static func parentDeclaration(for name: String, lazy: Bool) -> String {
        let made = "\(name)Component()"
        return "let \(property(for: name)) = \(lazy ? "LazyComponent(\(made))" : made)"
    }

    static func component(name: String, router: Bool, lazy: Bool, folder: String?, project: Project, renderer: TemplateRenderer) throws -> Scaffold {
        let type = name + "Component"
        let values: [String: Any] = [
            "name": name,
            "type": type,
            "property": property(for: name),
            "router": router,
            "lazy": lazy,
        ]
        var base = project.componentsFolder
        if let folder { base += "/" + folder }
        base += "/" + name
        var scaffold = Scaffold(root: project.root)
        for (template, suffix) in [("component/Component.swift", ""), ("component/Component+Observers.swift", "+Observers"), ("component/Component+State.swift", "+State")] {
            scaffold.files.append(.init(path: "\(base)/\(name)\(suffix).swift", contents: try renderer.render(template, values), template: template))
        }
        return scaffold
    }
}
