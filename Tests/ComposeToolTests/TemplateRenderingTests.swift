@testable import ComposeTool
import Foundation
import Testing

@Suite struct TemplateRenderingTests {
    static var values: [String: Any] { [
        "name": "Sample",
        "type": "SampleComponent",
        "root": "SampleComponent",
        "label": "sample",
        "environmentPrefix": "SAMPLE",
        "property": "sample",
        "composeDependency": ".package(path: \"/tmp/compose\")",
        "composePackage": "compose",
        "router": false,
        "lazy": false,
    ] }

    static let templates = [
        "shared/Package.swift", "shared/gitignore", "shared/Greeting.swift",
        "app/App.swift", "app/App+Observers.swift", "app/App+Startup.swift", "app/Home.swift",
        "app/Home+Observers.swift", "app/Home+State.swift", "app/About.swift", "app/About+Observers.swift", "app/AppTests.swift",
        "daemon/App.swift", "daemon/App+Observers.swift", "daemon/App+Startup.swift", "daemon/Server.swift",
        "daemon/Server+Observers.swift", "daemon/Connection.swift", "daemon/Connection+Observers.swift",
        "daemon/AppTests.swift",
        "terminal/App.swift", "terminal/App+Observers.swift", "terminal/App+View.swift", "terminal/App+Startup.swift",
        "terminal/Home+Observers.swift", "terminal/Home+View.swift", "terminal/About.swift", "terminal/About+View.swift",
        "terminal/AppTests.swift",
        "component/Component.swift", "component/Component+Observers.swift", "component/Component+State.swift",
    ]

    @Test(arguments: templates)
    func everyTemplateRendersWithNoTagLeft(_ name: String) async throws {
        let renderer = try await TemplateRenderer.load()
        let text = try renderer.render(name, Self.values)
        #expect(!text.isEmpty)
        #expect(!text.contains("{{"))
        #expect(!text.contains("CONTENT_TYPE"))
        #expect(!text.contains("&quot;"), "text templates must not be HTML-escaped")
    }

    @Test func thePackageManifestNamesTheDependencyAndItsPackage() async throws {
        let text = try await TemplateRenderer.load().render("shared/Package.swift", Self.values)
        #expect(text.hasPrefix("// swift-tools-version: 6.1"))
        #expect(text.contains(".package(path: \"/tmp/compose\")"))
        #expect(text.contains(".product(name: \"ComposeApp\", package: \"compose\")"))
        #expect(text.contains("name: \"SampleTests\""))
        #expect(!text.contains("ComposePersistence"))
        var values = Self.values
        values["persistence"] = true
        let persisting = try await TemplateRenderer.load().render("shared/Package.swift", values)
        // The section's tags, alone on their lines, leave no line behind.
        #expect(persisting.contains("""
                        .product(name: "ComposeApp", package: "compose"),
                        .product(name: "ComposePersistence", package: "compose"),
                    ]
        """))
    }

    @Test func aComponentHasAStoreOfItsStateAndAValidationOfIt() async throws {
        let renderer = try await TemplateRenderer.load()
        let state = try renderer.render("component/Component+State.swift", Self.values)
        #expect(state.contains("struct SampleState: Equatable, Codable"))
        #expect(state.contains("static let rules = Validation<SampleState> {"))
        #expect(state.contains("Field(\\.title) { NonEmpty()"))
        #expect(state.contains("@Store(persistedAs: \"sample\")"))
        var values = Self.values
        for router in [false, true] {
            values["router"] = router
            let component = try renderer.render("component/Component.swift", values)
            #expect(component.contains("@Store var state = SampleState()"))
        }
        let observers = try renderer.render("component/Component+Observers.swift", Self.values)
        #expect(observers.contains("state.title = title"))
        #expect(observers.contains("$state += { state in"))
        #expect(observers.contains("$state.validated(by: SampleState.rules) ++= { result in"))
    }

    @Test func componentVariantsDiffer() async throws {
        let renderer = try await TemplateRenderer.load()
        var values = Self.values
        let plain = try renderer.render("component/Component.swift", values)
        values["router"] = true
        let router = try renderer.render("component/Component.swift", values)
        values["router"] = false
        values["lazy"] = true
        let lazy = try renderer.render("component/Component.swift", values)
        #expect(plain.contains("struct SampleComponent: Component"))
        #expect(router.contains("struct SampleComponent: RouterComponent"))
        #expect(router.contains("Router(start: \\Self.self)"))
        #expect(lazy.contains("LazyComponent(SampleComponent())"))
    }
}
