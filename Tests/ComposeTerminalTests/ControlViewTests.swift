import ComposeTerminal
import Testing

@MainActor
@Suite struct ControlViewTests {
    static let fruit = ["apple", "banana", "cherry", "damson", "elder"]

    @Test func aListHighlightsTheSelectedRowAcrossItsWidth() {
        let list = List(Self.fruit, selection: 1) { Text($0) }
        let grid = canvas(list, width: 8, height: 5).grid
        #expect(grid.text == "apple\nbanana\ncherry\ndamson\nelder\n")
        #expect((0..<8).allSatisfy { grid[x: $0, y: 1].style.attributes == .reverse })
        #expect(grid[x: 0, y: 0].style == .plain)
    }

    @Test func aListScrollsToKeepTheSelectionInView() {
        #expect(render(List(Self.fruit, selection: 0) { Text($0) }, width: 6, height: 2) == lines("apple ", "banana"))
        #expect(render(List(Self.fruit, selection: 3) { Text($0) }, width: 6, height: 2) == lines("cherry", "damson"))
        #expect(render(List(Self.fruit, selection: 4) { Text($0) }, width: 6, height: 2) == lines("damson", "elder "))
        // Out of range: nothing selected, the list shows its top.
        let none = canvas(List(Self.fruit, selection: 9) { Text($0) }, width: 6, height: 2).grid
        #expect(none.text == "apple\nbanana\n")
        #expect(none[x: 0, y: 0].style == .plain)
        #expect(render(List(Self.fruit, selection: -1) { Text($0) }, width: 6, height: 0) == "")
        #expect(render(List(selection: 0) {}, width: 3, height: 1) == lines("   "))
    }

    @Test func aListFillsTheRoomItIsOfferedAndIsFocusable() {
        #expect(List(Self.fruit) { Text($0) }.sizeThatFits(ProposedSize(width: 7, height: 3)) == Size(width: 7, height: 3))
        let drawn = canvas(List(Self.fruit) { Text($0) }.padding(), width: 7, height: 4)
        #expect(drawn.focusRegions.map(\.kind) == [.list])
        #expect(drawn.focusRegions.first?.rect == Rect(x: 1, y: 1, width: 5, height: 2))
        #expect(drawn.focusRegions.first?.id == FocusID(component: nil, name: "list.0"))
    }

    @Test func aTextFieldShowsTextPlaceholderAndReportsItsCursor() {
        let empty = canvas(TextField("new note", text: ""), width: 10, height: 1)
        #expect(empty.grid.text == "new note\n")
        #expect(empty.grid[x: 0, y: 0].style.attributes == .dim)
        #expect(empty.cursor == Point(x: 0, y: 0))

        let typed = canvas(VStack { Text("Name:"); TextField(text: "milk", cursor: 2).padding(EdgeInsets(leading: 1)) }, width: 10, height: 2)
        #expect(typed.grid.text == "Name:\n milk\n")
        #expect(typed.cursor == Point(x: 3, y: 1))
        #expect(typed.focusRegions.first?.kind == .textField)

        let atEnd = canvas(TextField(text: "milk"), width: 10, height: 1)
        #expect(atEnd.cursor == Point(x: 4, y: 0))
    }

    @Test func aTextFieldScrollsToKeepTheCursorInView() {
        let long = canvas(TextField(text: "abcdefghij"), width: 5, height: 1)
        #expect(long.grid.text == "ghij\n")
        #expect(long.cursor == Point(x: 4, y: 0))
        let start = canvas(TextField(text: "abcdefghij", cursor: 0), width: 5, height: 1)
        #expect(start.grid.text == "abcde\n")
        #expect(start.cursor == Point(x: 0, y: 0))
        let wide = canvas(TextField(text: "日本語", cursor: 99), width: 4, height: 1)
        #expect(wide.cursor == Point(x: 3, y: 0))
        #expect(canvas(TextField(text: "abc"), width: 0, height: 1).cursor == nil)
    }

    @Test func theFocusedFieldHasTheCursor() {
        let form = VStack {
            TextField(text: "first")
            TextField(text: "second")
        }
        #expect(canvas(form, width: 8, height: 2).cursor == Point(x: 5, y: 0))
        let second = FocusID(component: nil, name: "textField.1")
        let focused = canvas(form, width: 8, height: 2, focus: second)
        #expect(focused.cursor == Point(x: 6, y: 1))
        #expect(focused.isFocused(second))
        #expect(focused.focusRegions.map(\.id.name) == ["textField.0", "textField.1"])
    }

    @Test func aScrollViewShowsItsContentFromTheOffset() {
        let content = { (offset: Int) in
            ScrollView(offset: offset) {
                ForEach(1...6) { Text("line \($0)") }
            }
        }
        #expect(render(content(0), width: 6, height: 3) == lines("line 1", "line 2", "line 3"))
        #expect(render(content(2), width: 6, height: 3) == lines("line 3", "line 4", "line 5"))
        // Past the end, or before the start: clamped.
        #expect(render(content(99), width: 6, height: 3) == lines("line 4", "line 5", "line 6"))
        #expect(render(content(-5), width: 6, height: 2) == lines("line 1", "line 2"))
        #expect(render(content(1), width: 6, height: 0) == "")
        // Short content: the scroll view is as tall as it.
        let framed = VStack {
            ScrollView { Text("only") }
            Text("after")
        }
        #expect(render(framed, width: 5, height: 3) == lines("only ", "after", "     "))
    }

    @Test func aScrollViewInAStackKeepsItsSiblingsInView() {
        let screen = VStack {
            Text("head")
            ScrollView(offset: 1) { ForEach(1...9) { Text("r\($0)") } }
            Text("foot")
        }
        #expect(render(screen, width: 4, height: 5) == lines("head", "r2  ", "r3  ", "r4  ", "foot"))
    }

    @Test func aProgressBarFillsInEighthsOfACell() {
        #expect(render(ProgressBar(value: 0), width: 4, height: 1) == lines("    "))
        #expect(render(ProgressBar(value: 0.5), width: 4, height: 1) == lines("██  "))
        #expect(render(ProgressBar(value: 1), width: 4, height: 1) == lines("████"))
        #expect(render(ProgressBar(value: 0.5 + 1.0 / 32), width: 4, height: 1) == lines("██▏ "))
        #expect(render(ProgressBar(value: 0.99), width: 4, height: 1) == lines("███▉"))
        #expect(render(ProgressBar(value: 7), width: 3, height: 1) == lines("███"))
        #expect(render(ProgressBar(value: -1), width: 3, height: 1) == lines("   "))
        #expect(render(ProgressBar(value: .nan), width: 3, height: 1) == lines("   "))
        #expect(render(ProgressBar(value: 0.5), width: 0, height: 1) == lines(""))
    }

    static let table = Table(
        columns: [.init("Name"), .init("Peer", width: .fixed(6)), .init("Bytes", alignment: .trailing)],
        rows: [["alice", "10.0.0.1", "1200"], ["bob", "10.0.0.2", "7"], ["carol"]],
        selection: 1
    )

    @Test func aTableSizesColumnsFromContentOrFixed() {
        #expect(render(Self.table, width: 20, height: 5) == lines(
            "Name  Peer   Bytes  ",
            "──────────────────  ",
            "alice 10.0.…  1200  ",
            "bob   10.0.…     7  ",
            "carol               "
        ))
        let grid = canvas(Self.table, width: 20, height: 5).grid
        #expect(grid[x: 0, y: 0].style.attributes == .bold)
        #expect((0..<20).allSatisfy { grid[x: $0, y: 3].style.attributes == .reverse })
    }

    @Test func aTableTooNarrowShrinksItsWidestColumnsAndScrollsToTheSelection() {
        #expect(render(Self.table, width: 14, height: 3) == lines(
            "Na… Peer   By…",
            "──────────────",
            "bob 10.0.…   7"
        ))
        // Fixed columns keep their width and are cut at the right edge.
        #expect(render(Self.table, width: 3, height: 1) == lines(" Pe"))
        #expect(render(Self.table, width: 0, height: 0) == "")
    }
}
