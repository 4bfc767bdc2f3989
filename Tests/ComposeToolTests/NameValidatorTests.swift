@testable import ComposeTool
import Foundation
import Testing

@Suite struct NameValidatorTests {
    @Test(arguments: ["Notes", "Echo2", "MyApp", "ProfileComponent"])
    func validTypeNamesPass(_ name: String) {
        #expect(NameValidator.problem(with: name) == nil)
    }

    @Test func keywordsAreRefusedWithAnAlternative() {
        let problem = NameValidator.problem(with: "struct")
        #expect(problem?.contains("Swift keyword") == true)
        #expect(problem?.contains("StructScreen") == true)
    }

    @Test func namesThatCannotBeTypeNamesSayWhy() {
        #expect(NameValidator.problem(with: "")?.contains("empty") == true)
        #expect(NameValidator.problem(with: "9lives")?.contains("must start with a letter") == true)
        #expect(NameValidator.problem(with: "my-app")?.contains("contains \"-\"") == true)
        #expect(NameValidator.problem(with: "Component")?.contains("already used") == true)
        #expect(NameValidator.problem(with: "_Private")?.contains("uppercase") == true)
    }

    @Test(arguments: [
        ("profileComponent", "ProfileComponent"), ("my-app", "MyApp"), ("notes", "Notes"),
        ("9lives", "Lives"), ("hello world", "HelloWorld"), ("_private", "Private"),
        ("_Foo", "Foo"), ("Écho", "Echo"), ("café-bar", "CafeBar"),
    ])
    func aNameThatIsNotATypeNameSuggestsTheFixedOne(_ typed: String, _ fixed: String) {
        #expect(NameValidator.suggestion(for: typed) == fixed)
        #expect(NameValidator.problem(with: typed)?.contains("did you mean \(fixed)?") == true)
    }

    /// `_Foo` was said to start "with a lowercase letter", and `Écho`
    /// suggested `Cho`.
    @Test func anUnderscoreOrAnAccentedLetterIsNamedForWhatItIs() throws {
        let underscore = try #require(NameValidator.problem(with: "_Foo"))
        #expect(underscore.contains("starts with an underscore"), "\(underscore)")
        #expect(!underscore.contains("lowercase"), "\(underscore)")
        #expect(underscore.hasSuffix("(did you mean Foo?)"), "\(underscore)")
        let accented = try #require(NameValidator.problem(with: "Écho"))
        #expect(accented.contains("contains \"É\", a letter outside ASCII"), "\(accented)")
        #expect(!accented.contains("must start with a letter"), "\(accented)")
        #expect(accented.hasSuffix("(did you mean Echo?)"), "\(accented)")
    }

    @Test func noSuggestionWhenNothingValidIsLeft() {
        #expect(NameValidator.suggestion(for: "--") == nil)
        #expect(NameValidator.suggestion(for: "Notes") == nil)
        #expect(NameValidator.suggestion(for: "router") == nil, "Router is Compose's")
    }

    /// A component NAME declares NAMEComponent: every public
    /// `...Component` type of this checkout must be refused, so the
    /// validator's list follows the libraries.
    @Test func everyPublicComponentTypeOfComposeIsReserved() throws {
        let sources = ToolPaths.checkout.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        var found: Set<String> = []
        for case let path as String in walker where path.hasSuffix(".swift") && !path.hasPrefix("ComposeTool") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("public ") {
                for name in TypeDeclarations.declaredTypes(in: String(line)) where name.hasSuffix("Component") {
                    found.insert(name)
                }
            }
        }
        #expect(found.count >= 5, "\(found)")
        #expect(found.subtracting(NameValidator.composeTypes).isEmpty, "add them to NameValidator.composeTypes")
    }
}
