@testable import ComposeTerminal
import ComposeTesting
import Testing

/// The runtime of views on a test context's simulated terminal: frames
/// after turns that changed something, one write each, key bindings in
/// their order, focus, Ctrl+C, resize, and line output without a terminal.
@MainActor
@Suite struct TerminalScreenTests {
    struct Counter: Component {
        @Store var count = 0
        let bump = SignalEmitter()
        var observers: Void { bump += { count += 1 } }
    }

    struct Root: Component {
        let counter = Counter()
        @Store var draft = TextInput()
        @Store var other = TextInput()
        @Store var log: [String] = []
        var observers: Void { None }
    }

    /// What the terminal shows: the simulated terminal's output applied
    /// to a virtual terminal.
    static func screen(_ app: TestApp) -> String {
        let terminal = app.context.simulatedTerminal!
        var virtual = VirtualTerminal(size: Size(width: terminal.columns, height: terminal.rows))
        virtual.apply(terminal.output)
        return (0..<virtual.grid.size.height).map { String(virtual.grid.text(row: $0).reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }

    static func type(_ app: TestApp, _ text: String) {
        app.context.simulatedTerminal!.type(Array(text.utf8))
        app.runUntilIdle()
    }

    @Test func theRootsViewIsDrawnAndRedrawnWhenAStoreChanges() throws {
        let app = TestApp(root: Root())
        #expect(Self.screen(app).hasPrefix("count: 0\n"))
        let terminal = app.context.simulatedTerminal!
        let writes = terminal.writes.count
        app.run { app.root(as: Root.self)!.counter.bump.send() }
        #expect(Self.screen(app).hasPrefix("count: 1\n"))
        // One frame, one write, a few bytes: the changed digit.
        #expect(terminal.writes.count == writes + 1)
        #expect(try #require(terminal.writes.last).count < 40)
        // A turn that changed nothing writes nothing.
        app.runUntilIdle()
        #expect(terminal.writes.count == writes + 1)
    }

    @Test func keysGoToTheFocusedFieldFirstThenToBindingsInOrder() {
        let app = TestApp(root: Root())
        Self.type(app, "hi")
        #expect(Self.screen(app).contains("> hi"))
        // "+" typed into the field is text, not the counter's binding.
        Self.type(app, "+")
        #expect(Self.screen(app).contains("> hi+"))
        #expect(Self.screen(app).hasPrefix("count: 0"))
        // Tab moves to the second field; Enter there is the root's binding.
        Self.type(app, "\t")
        Self.type(app, "x\r")
        #expect(app.run { app.root(as: Root.self)!.log } == ["enter in other: x"])
        // Escape leaves the fields: Shift+Tab back to the first.
        Self.type(app, "\u{1B}[Z")
        Self.type(app, "!")
        #expect(Self.screen(app).contains("> hi+!"))
    }

    @Test func theHelpLineShowsTheBindingsOnTheScreen() {
        let app = TestApp(root: Root())
        let last = Self.screen(app).split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init)
        #expect(last == "Enter add  Tab next  Ctrl+C quit")
    }

    @Test func ctrlCShutsTheAppDownAndGivesTheTerminalBack() {
        let app = TestApp(root: Root())
        let terminal = app.context.simulatedTerminal!
        #expect(terminal.isEntered)
        Self.type(app, "\u{03}")
        app.runUntilExit()
        #expect(app.hasExited)
        #expect(!terminal.isEntered)
    }

    @Test func aTerminalThatHangsUpShutsTheAppDown() {
        let app = TestApp(root: Root())
        let terminal = app.context.simulatedTerminal!
        terminal.type(Array("ab".utf8))
        terminal.hangUp()
        app.runUntilExit()
        #expect(app.hasExited)
        #expect(app.exitStatus == 1)
        #expect(!terminal.isEntered)
        // What was typed before it hung up was still read.
        #expect(app.run { app.root(as: Root.self)!.draft.text } == "ab")
    }

    @Test func withoutATerminalTheEndOfTheKeysDoesNotEndTheApp() {
        let app = TestApp(root: Root(), setUp: { $0.context.simulatedTerminal!.isTerminal = false })
        app.context.simulatedTerminal!.hangUp()
        app.runUntilIdle()
        #expect(!app.hasExited)
    }

    @Test func aResizeLaysTheScreenOutAgain() {
        let app = TestApp(root: Root())
        app.context.simulatedTerminal!.resize(columns: 25, rows: 5)
        app.runUntilIdle()
        let lines = Self.screen(app).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        #expect(lines.last == "Enter add  Tab next  Ctr…")
    }

    @Test func withoutATerminalTheScreenIsPrintedAsLines() {
        let app = TestApp(root: Root(), setUp: { $0.context.simulatedTerminal!.isTerminal = false })
        // Keys still come from standard input: typed into the first field.
        Self.type(app, "ab")
        app.run { app.root(as: Root.self)!.counter.bump.send() }
        #expect(app.context.simulatedTerminal!.output.isEmpty)
        // Each frame prints the rows that changed; blank rows never.
        #expect(app.context.simulatedStandardOutput!.lines == [
            "count: 0", "> draft", "> other", "Enter add  Tab next  Ctrl+C quit",
            "> ab",
            "count: 1",
        ])
    }
}

extension TerminalScreenTests.Root: ViewComponent {
    var view: some View {
        VStack {
            ComponentView(counter)
            HStack { Text("> "); TextField("draft", input: draft).focusName("draft") }
            HStack { Text("> "); TextField("other", input: other).focusName("other") }
            Spacer()
            HelpLine()
        }
    }

    var keyBindings: [KeyBinding] {
        KeyBinding.input(whileFocused: "draft") { draft.apply($0) }
        KeyBinding.input(whileFocused: "other") { other.apply($0) }
        KeyBinding(.enter, "add") { log.append("enter in other: \(other.text)") }
    }
}

extension TerminalScreenTests.Counter: ViewComponent {
    var view: some View { Text("count: \(count)") }
    var keyBindings: [KeyBinding] {
        KeyBinding("+", "more") { count += 1 }
    }
}

/// Focus moved with Tab between the views of two components moves the
/// tree's focus too: `didEnterFocus` and `didLeaveFocus` as for routing.
@MainActor
@Suite struct TerminalFocusTests {
    struct Pane: Component {
        @Store var field = TextInput()
        @Store var focusEvents: [String] = []
        var observers: Void {
            didEnterFocus += { focusEvents.append("enter") }
            didLeaveFocus += { focusEvents.append("leave") }
        }
    }

    struct Root: Component {
        let left = Pane()
        let right = Pane()
        var observers: Void { None }
    }

    @Test func tabToAnotherComponentsViewGivesItTheTreesFocus() {
        let app = TestApp(root: Root())
        let root = app.root(as: Root.self)!
        // The first field is the left pane's: it has the tree's focus.
        #expect(app.run { app.tree.focusedNode?.label } == "left")
        #expect(app.run { root.left.focusEvents } == ["enter"])
        TerminalScreenTests.type(app, "\t")
        #expect(app.run { app.tree.focusedNode?.label } == "right")
        #expect(app.run { root.left.focusEvents } == ["enter", "leave"])
        #expect(app.run { root.right.focusEvents } == ["enter"])
        // Typed text goes to the right pane's field now.
        TerminalScreenTests.type(app, "r")
        #expect(app.run { root.right.field.text } == "r")
        TerminalScreenTests.type(app, "\t")
        #expect(app.run { app.tree.focusedNode?.label } == "left")
        #expect(app.run { root.right.focusEvents } == ["enter", "leave"])
    }
}

extension TerminalFocusTests.Root: ViewComponent {
    var view: some View {
        HStack { ComponentView(left); ComponentView(right) }
    }
}

extension TerminalFocusTests.Pane: ViewComponent {
    var view: some View { TextField("text", input: field).focusName("field") }
    var keyBindings: [KeyBinding] {
        KeyBinding.input(whileFocused: "field") { field.apply($0) }
    }
}
