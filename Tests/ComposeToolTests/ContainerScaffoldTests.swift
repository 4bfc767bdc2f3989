import ComposeApp
import ComposeHTTP
import ComposeTesting
@testable import ComposeTool
import Foundation
import Testing

/// `compose new --http` and `--container`: what they write, and that the
/// numbers of the Containerfile and the Kubernetes Deployment agree with
/// the runtime's and the scaffolded code's. (The files' text is golden:
/// GoldenTests. No container runtime or cluster runs here, so nothing
/// builds the image or applies the Deployment.)
@Suite struct ContainerScaffoldTests {
    /// The folder `compose new Echo OPTIONS` writes.
    static func scaffold(_ options: [String]) throws -> URL {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", "Echo", "--compose-path", ToolPaths.checkout.path] + options, in: folder)
        #expect(run.status == 0, "\(run.errors)")
        return folder.appendingPathComponent("Echo")
    }

    static func text(_ app: URL, _ path: String) throws -> String {
        try String(contentsOf: app.appendingPathComponent(path), encoding: .utf8)
    }

    /// The whole seconds of `duration` (the runtime's defaults are whole).
    static func seconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds)
    }

    /// The integers on the lines of `text` that start (after spaces) with
    /// `prefix`.
    static func numbers(after prefix: String, in text: String) -> [Int] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix(prefix) else { return nil }
            return Int(trimmed.dropFirst(prefix.count).trimmingCharacters(in: CharacterSet(charactersIn: " \"]")))
        }
    }

    static let httpFiles = [
        "Sources/Echo/Components/HTTP/HTTP.swift", "Sources/Echo/Components/HTTP/HTTP+Observers.swift",
        "Sources/Echo/Components/Hello/Hello.swift", "Sources/Echo/Components/Hello/Hello+Observers.swift",
        "Tests/EchoTests/HTTPTests.swift",
    ]
    static let containerFiles = ["Containerfile", ".dockerignore", "deploy/Echo.yaml"]

    @Test func httpMakesADaemonWithAnHTTPServerAndNoContainerFiles() throws {
        let app = try Self.scaffold(["--http"])
        let files = Set(ToolPaths.files(in: app))
        #expect(files.isSuperset(of: Self.httpFiles + ["Sources/Echo/Components/Server/Server.swift"]), "\(files.sorted())")
        #expect(files.isDisjoint(with: Self.containerFiles))
        #expect(try Self.text(app, "Package.swift").contains(".product(name: \"ComposeHTTP\", package: "))
        #expect(try Self.text(app, "Sources/Echo/Components/HTTP/HTTP+Observers.swift").contains("server.serveHealth()"))
    }

    @Test func containerImpliesHTTPAndWritesTheImageAndTheDeployment() throws {
        let app = try Self.scaffold(["--container"])
        let files = Set(ToolPaths.files(in: app))
        #expect(files.isSuperset(of: Self.httpFiles + Self.containerFiles), "\(files.sorted())")
        let plain = try Self.scaffold([])
        #expect(Set(ToolPaths.files(in: plain)).isDisjoint(with: Self.httpFiles + Self.containerFiles), "a plain app has neither")
    }

    /// The grace period Kubernetes gives before SIGKILL covers the preStop
    /// hook and the runtime's whole shutdown (its drain included), as
    /// StartupConfiguration's defaults say today.
    @Test func theGracePeriodIsLongerThanThePreStopHookAndTheRuntimesShutdown() throws {
        let runtime = StartupConfiguration()
        let deadline = Self.seconds(runtime.shutdownDeadline)
        let drain = Self.seconds(runtime.drainTimeout)
        #expect(Scaffolds.Container.shutdownDeadlineSeconds == deadline, "StartupConfiguration's shutdownDeadline changed: update Scaffolds.Container")
        #expect(Scaffolds.Container.drainSeconds == drain, "StartupConfiguration's drainTimeout changed: update Scaffolds.Container")
        #expect(drain <= deadline, "the deadline bounds the whole shutdown, drain included")

        let yaml = try Self.text(try Self.scaffold(["--container"]), "deploy/Echo.yaml")
        let grace = try #require(Self.numbers(after: "terminationGracePeriodSeconds:", in: yaml).first)
        let preStop = try #require(Self.numbers(after: "command: [\"sleep\",", in: yaml).first)
        #expect(grace > preStop + deadline, "SIGKILL would cut a drain short: \(grace) s <= \(preStop) + \(deadline) s")
        // The comment above it says the same numbers.
        #expect(yaml.contains("up to\n      # \(drain) s (StartupConfiguration.drainTimeout)"), "\(yaml)")
        #expect(yaml.contains("exits within \(deadline) s (StartupConfiguration.shutdownDeadline"), "\(yaml)")
        #expect(yaml.contains("\(preStop) + \(deadline) = \(preStop + deadline) s at most, so \(grace) s"), "\(yaml)")
    }

    /// The ports the Deployment, the Service and the image name are the
    /// scaffolded app's defaults; the probes ask the paths `serveHealth()`
    /// serves.
    @Test func thePortsAndProbePathsAreTheApps() throws {
        let app = try Self.scaffold(["--container"])
        let yaml = try Self.text(app, "deploy/Echo.yaml")
        let containerfile = try Self.text(app, "Containerfile")
        let root = try Self.text(app, "Sources/Echo/Components/App/App.swift")
        #expect(root.contains("Application.config.int(forKey: \"port\", default: \(Scaffolds.daemonPort))"), "\(root)")
        #expect(root.contains("Application.config.int(forKey: \"httpPort\", default: \(Scaffolds.httpPort))"), "\(root)")
        #expect(Self.numbers(after: "containerPort:", in: yaml) == [Scaffolds.daemonPort, Scaffolds.httpPort])
        #expect(Self.numbers(after: "port:", in: yaml) == [Scaffolds.daemonPort, Scaffolds.httpPort], "the Service's ports")
        #expect(containerfile.contains("\nEXPOSE \(Scaffolds.daemonPort) \(Scaffolds.httpPort)\n"))
        #expect(containerfile.contains("\nSTOPSIGNAL SIGTERM\n"))
        #expect(containerfile.contains("\nUSER 10001\n"))
        #expect(yaml.contains("runAsUser: 10001"))
        #expect(yaml.contains("livenessProbe:\n            httpGet:\n              path: /healthz\n              port: http\n"), "\(yaml)")
        #expect(yaml.contains("readinessProbe:\n            httpGet:\n              path: /readyz\n              port: http\n"), "\(yaml)")
    }

    /// `serveHealth()` with its defaults, as the scaffold calls it, serves
    /// the paths the probes ask (on TestApp's simulated network, in raw
    /// HTTP through the server's parser).
    @MainActor
    @Test func serveHealthsDefaultPathsAreTheProbes() throws {
        let app = TestApp(root: ProbedDaemon())
        let client = try app.connect(port: UInt16(Scaffolds.httpPort))
        client.write("GET /healthz HTTP/1.1\r\nHost: pod\r\n\r\nGET /readyz HTTP/1.1\r\nHost: pod\r\n\r\n")
        let answers = client.receivedText.components(separatedBy: "HTTP/1.1 ").dropFirst()
        #expect(answers.count == 2, "\(client.receivedText)")
        #expect(answers.allSatisfy { $0.hasPrefix("200 OK\r\n") }, "\(client.receivedText)")
        #expect(client.receivedText.hasSuffix("\r\n\r\nready\n"), "\(client.receivedText)")
    }

    @Test func kubernetesNamesAreLowercaseWithDashes() {
        #expect(Scaffolds.kubernetesName(for: "Echo") == "echo")
        #expect(Scaffolds.kubernetesName(for: "HitCounter") == "hit-counter")
        #expect(Scaffolds.kubernetesName(for: "KVResp") == "kvresp")
        #expect(Scaffolds.kubernetesName(for: "Api2Go") == "api2go")
    }

    @Test(arguments: [
        (["--kind", "app", "--http"], "--http makes a daemon that serves HTTP"),
        (["--kind", "terminal", "--http"], "--http makes a daemon that serves HTTP"),
        (["--kind", "app", "--container"], "--container makes a daemon that serves HTTP"),
    ])
    func httpOptionsThatDoNotFitAreRefused(_ options: [String], _ reason: String) throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", "Echo", "--compose-path", ToolPaths.checkout.path] + options, in: folder)
        #expect(run.status != 0)
        #expect(run.errors.contains(reason), "\(run.errors)")
        #expect(ToolPaths.files(in: folder).isEmpty)
    }

    /// Kubernetes names are DNS labels: 63 characters at most.
    @Test func aNameTooLongForKubernetesIsRefusedWithContainerOnly() throws {
        let long = "A" + String(repeating: "b", count: 63)
        let folder = try ToolPaths.temporaryFolder()
        let refused = try ToolRun.run(ToolPaths.compose, ["new", long, "--container", "--dry-run", "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("Kubernetes names are at most 63 characters"), "\(refused.errors)")
        let accepted = try ToolRun.run(ToolPaths.compose, ["new", long, "--http", "--dry-run", "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(accepted.status == 0, "\(accepted.errors)")
    }

    @Test(arguments: ["HTTP", "Hello"])
    func anAppNamedAfterAnHTTPComponentIsRefused(_ name: String) throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", name, "--http", "--compose-path", ToolPaths.checkout.path], in: folder)
        #expect(run.status != 0)
        #expect(run.errors.contains("--http already adds a \(name)Component"), "\(run.errors)")
    }
}

/// A server with the health endpoints as the scaffold serves them.
struct ProbedDaemon: Component {
    let server = HTTPServer(port: UInt16(Scaffolds.httpPort))
    var observers: Void {
        server.serveHealth()
    }
}
