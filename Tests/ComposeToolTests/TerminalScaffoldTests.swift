@testable import ComposeTool
import Foundation
import Testing

/// `compose new NAME --kind terminal`: the app kind's router of two
/// screens, shown as views with key bindings and a help line, tested on a
/// virtual screen. (EndToEndTests builds it, runs its tests, and runs it
/// with its output on a pipe.)
@Suite struct TerminalScaffoldTests {
    @Test func theFilesAreTheAppsWithAViewBesideEachComponent() throws {
        let files = try ScaffoldNamingTests.generate("Panel", ["--kind", "terminal"])
        let sources = "Sources/Panel/Components/"
        #expect(Set(files.keys) == [
            "Package.swift", ".gitignore",
            sources + "App/App.swift", sources + "App/App+Observers.swift", sources + "App/App+Startup.swift", sources + "App/App+View.swift",
            sources + "Home/Home.swift", sources + "Home/Home+Observers.swift", sources + "Home/Home+State.swift", sources + "Home/Home+View.swift",
            sources + "About/About.swift", sources + "About/About+View.swift",
            "Sources/Panel/Services/Greeting/GreetingService.swift",
            "Tests/PanelTests/AppTests.swift",
        ])
        #expect(files[sources + "App/App+View.swift"]?.contains("extension PanelComponent: ViewComponent {") == true)
        #expect(files[sources + "App/App+View.swift"]?.contains("HelpLine()") == true)
        #expect(files[sources + "Home/Home+View.swift"]?.contains("extension HomeComponent: ViewComponent {") == true)
        #expect(files["Tests/PanelTests/AppTests.swift"]?.contains("app.press(\"a\")") == true)
        // A terminal app shows; it never prints over its own screen.
        for (path, text) in files where path.hasPrefix("Sources/") {
            #expect(!text.contains("print("), "\(path) prints")
        }
    }

    @Test func thePackageLinksTheTerminalAndItsTesting() throws {
        let manifest = try #require(try ScaffoldNamingTests.generate("Panel", ["--kind", "terminal"])["Package.swift"])
        #expect(manifest.contains(".product(name: \"ComposeTerminal\", package:"), "\(manifest)")
        #expect(manifest.contains(".product(name: \"ComposeTerminalTesting\", package:"), "\(manifest)")
        #expect(manifest.contains(".product(name: \"ComposePersistence\", package:"), "\(manifest)")
        // The other kinds link neither.
        let app = try #require(try ScaffoldNamingTests.generate("Notes")["Package.swift"])
        #expect(!app.contains("ComposeTerminal"))
    }
}
