@testable import ComposeTool
import Foundation
import Testing

@Suite struct ParentEditorTests {
    static let line = "let profile = ProfileComponent()"

    @Test func thePropertyGoesAfterTheLastStoredProperty() {
        let parent = """
        import ComposeApp

        /// The root. { a brace in a comment }
        @main
        struct AppComponent: RouterComponent {
            let home = HomeComponent()
            @Service var greeting: GreetingService?  // "quoted" {
            let router = Router(start: \\Self.home)

            var observers: Void {
                let inner = 1
                _ = "}"
            }
        }
        """
        let plan = ParentEditor.plan(for: parent, property: "profile", declaration: Self.line)
        guard case .edit(let text, let type, let inserted) = plan else {
            Issue.record("not edited: \(plan)")
            return
        }
        #expect(type == "AppComponent")
        #expect(inserted == "    let profile = ProfileComponent()")
        #expect(text.contains("""
            let router = Router(start: \\Self.home)
            let profile = ProfileComponent()

            var observers: Void {
        """))
        #expect(text.components(separatedBy: "\n").count == parent.components(separatedBy: "\n").count + 1)
    }

    @Test func aComponentWithNoPropertyGetsItFirst() {
        let plan = ParentEditor.plan(for: "struct Empty: Component {\n    var observers: Void { None }\n}\n", property: "profile", declaration: Self.line)
        #expect(plan == .edit(
            text: "struct Empty: Component {\n    let profile = ProfileComponent()\n    var observers: Void { None }\n}\n",
            type: "Empty", line: "    let profile = ProfileComponent()"
        ))
    }

    @Test func attributesWithArgumentsStillMarkAStoredProperty() {
        #expect(ParentEditor.storedPropertyName("    @Store(persistedAs: \"a) b\") var state = HomeState()") == "state")
        #expect(ParentEditor.storedPropertyName("    @MainActor private(set) var count = 0 // {") == "count")
        #expect(ParentEditor.storedPropertyName("    var observers: Void {") == nil)
        #expect(ParentEditor.storedPropertyName("    func run() {}") == nil)
    }

    @Test(arguments: [
        ("import ComposeApp\nextension AppComponent {}\n", "no `struct NAME: ...Component {`"),
        ("struct A: Component {\n}\nstruct B: Component {\n}\n", "declares 2 component structs"),
        ("struct A: Component {\n    let text = \"\"\"\n    }\n    \"\"\"\n}\n", "multi-line or raw string"),
        ("struct A: Component\n{\n}\n", "opening brace"),
        ("struct A: Component {\n    let profile = 1\n}\n", "already has a property named profile"),
        ("struct A: Component {\n    let home = HomeComponent()\n", "end of A"),
    ])
    func whenTheFileIsNotSimpleTheLineIsGivenInstead(_ parent: String, _ reason: String) {
        let plan = ParentEditor.plan(for: parent, property: "profile", declaration: Self.line)
        guard case .manual(let why, _, let line) = plan else {
            Issue.record("edited: \(plan)")
            return
        }
        #expect(why.contains(reason), "\(why)")
        #expect(line == Self.line)
    }
}
