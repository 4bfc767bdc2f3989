import ComposeApp
import ComposeTesting
import Testing

/// `Application.print(_:)` in a `TestApp` writes to the test's
/// `standardOutput`, not to the terminal, and each app keeps its own.
@MainActor
@Suite struct TestAppStandardOutputTests {
    /// Echoes each line of standard input to standard output.
    struct Echo: Component {
        let input = StandardInput()
        var observers: Void {
            input += { line in Application.print("echo: \(line)") }
        }
    }

    @Test func printedLinesAreKeptForTheTestInOrder() {
        let app = TestApp(root: Echo())
        #expect(app.standardOutput.lines == [])
        app.standardInput.write("one\ntwo\n")
        #expect(app.standardOutput.lines == ["echo: one", "echo: two"])
        #expect(app.standardOutput.text == "echo: one\necho: two\n")
    }

    @Test func twoAppsKeepTheirOwnOutput() {
        let first = TestApp(root: Echo())
        let second = TestApp(root: Echo())
        first.standardInput.write("a\n")
        second.standardInput.write("b\n")
        #expect(first.standardOutput.lines == ["echo: a"])
        #expect(second.standardOutput.lines == ["echo: b"])
    }
}
