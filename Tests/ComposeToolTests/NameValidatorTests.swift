@testable import ComposeTool
import Testing

@Suite struct NameValidatorTests {
    @Test(arguments: ["Notes", "Echo2", "_Private", "MyApp"])
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
    }
}
