@testable import ComposeTool
import Foundation
import Testing

/// The tool's help and every template's rendered output, compared with the
/// files in Golden/. After an intended change, regenerate them with
/// `UPDATE_GOLDEN=1 swift test --filter GoldenTests` and review the diff.
@Suite struct GoldenTests {
    static let folder = ToolPaths.checkout.appendingPathComponent("Tests/ComposeToolTests/Golden")

    /// Compares `text` with Golden/`name`, or writes it there when
    /// `UPDATE_GOLDEN=1`.
    static func check(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let golden = try? String(contentsOf: url, encoding: .utf8)
        #expect(golden != nil, "Golden/\(name) is missing: run UPDATE_GOLDEN=1 swift test --filter GoldenTests", sourceLocation: sourceLocation)
        guard let golden, golden != text else { return }
        let expected = golden.components(separatedBy: "\n")
        let actual = text.components(separatedBy: "\n")
        let common = min(expected.count, actual.count)
        let line = (0..<common).first { expected[$0] != actual[$0] } ?? common
        Issue.record("""
        Golden/\(name) differs at line \(line + 1):
          golden: \(line < expected.count ? expected[line] : "(end)")
          actual: \(line < actual.count ? actual[line] : "(end)")
        (UPDATE_GOLDEN=1 swift test --filter GoldenTests regenerates it)
        """, sourceLocation: sourceLocation)
    }

    static let helps: [[String]] = [["--help"], ["new", "--help"], ["component", "--help"], ["inspect", "--help"], ["top", "--help"]]

    @Test(arguments: helps)
    func helpIsGoldenAndFitsEightyColumns(_ arguments: [String]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        environment["LINES"] = "25"
        let run = try ToolRun.run(ToolPaths.compose, arguments, in: ToolPaths.checkout, environment: environment)
        #expect(run.status == 0)
        let name = (["compose"] + arguments.dropLast()).joined(separator: "-")
        try Self.check(run.output, "help/\(name).txt")
        let wide = run.output.split(separator: "\n").map(String.init).filter { $0.count > 80 }
        #expect(wide.isEmpty, "lines over 80 columns:\n\(wide.joined(separator: "\n"))")
    }

    /// Each template with the values that change its output.
    static var renderings: [(template: String, variant: String, values: [String: Any])] {
        let base = TemplateRenderingTests.values
        func with(_ changes: [String: Any]) -> [String: Any] { base.merging(changes) { $1 } }
        // `compose new --http --container`'s values.
        let http = with([
            "port": 8080, "http": true, "httpPort": Scaffolds.httpPort, "kubernetesName": Scaffolds.kubernetesName(for: "Sample"),
            "drainSeconds": Scaffolds.Container.drainSeconds, "shutdownDeadlineSeconds": Scaffolds.Container.shutdownDeadlineSeconds,
            "preStopSeconds": Scaffolds.Container.preStopSeconds, "graceSeconds": Scaffolds.Container.graceSeconds,
            "stopSeconds": Scaffolds.Container.preStopSeconds + Scaffolds.Container.shutdownDeadlineSeconds,
        ])
        var list: [(String, String, [String: Any])] = []
        for template in templateNames() {
            switch template {
            case "shared/Package.swift":
                list += [
                    (template, "", base), (template, "persistence", with(["persistence": true])), (template, "http", http),
                    (template, "terminal", with(["persistence": true, "terminal": true])),
                ]
            case "daemon/App.swift", "daemon/App+Startup.swift", "daemon/Server.swift", "daemon/Server+Observers.swift":
                list += [(template, "", with(["port": 8080])), (template, "http", http)]
            case "daemon/HTTP.swift", "daemon/HTTP+Observers.swift", "daemon/Hello.swift", "daemon/Hello+Observers.swift",
                "daemon/HTTPTests.swift", "daemon/Containerfile", "daemon/dockerignore", "daemon/deployment.yaml":
                list.append((template, "", http))
            case "component/Component.swift":
                list += [(template, "", base), (template, "router", with(["router": true])), (template, "lazy", with(["lazy": true]))]
            case "daemon/app.service":
                list += [(template, "", with(["port": 8080])), (template, "workers", with(["port": 8080, "workers": 4]))]
            default:
                list.append((template, "", with(["port": 8080])))
            }
        }
        return list
    }

    /// Every template under Templates/, without `.mustache`.
    static func templateNames() -> [String] {
        let templates = ToolPaths.checkout.appendingPathComponent("Templates")
        let walker = FileManager.default.enumerator(atPath: templates.path)
        var names: [String] = []
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".mustache") { names.append(String(path.dropLast(".mustache".count))) }
        }
        return names.sorted()
    }

    @Test func everyTemplateIsRenderedHere() {
        let names = Self.templateNames()
        #expect(names.count >= 25, "\(names)")
        #expect(Set(Self.renderings.map(\.template)) == Set(names))
    }

    @Test func everyTemplateRenderingIsGolden() async throws {
        let renderer = try await TemplateRenderer.load()
        for rendering in Self.renderings {
            let text = try renderer.render(rendering.template, rendering.values)
            let suffix = rendering.variant.isEmpty ? "" : "." + rendering.variant
            try Self.check(text, "templates/\(rendering.template)\(suffix).golden")
        }
    }

    /// No golden file is left over from a template or help that is gone.
    @Test func everyGoldenFileIsChecked() throws {
        guard ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] != "1" else { return }
        let expected = Set(Self.renderings.map { "templates/\($0.template)\($0.variant.isEmpty ? "" : "." + $0.variant).golden" }
            + Self.helps.map { "help/\((["compose"] + $0.dropLast()).joined(separator: "-")).txt" })
        #expect(Set(ToolPaths.files(in: Self.folder)) == expected)
    }
}
