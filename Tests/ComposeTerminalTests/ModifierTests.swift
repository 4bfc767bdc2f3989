import ComposeTerminal
import Testing

@MainActor
@Suite struct ModifierTests {
    @Test func paddingLeavesBlankCellsAround() {
        #expect(render(Text("hi").padding(), width: 5, height: 3) == lines("     ", " hi  ", "     "))
        #expect(Text("hi").padding(2).sizeThatFits(ProposedSize(width: 10, height: 10)) == Size(width: 6, height: 5))
        #expect(render(Text("hi").padding(EdgeInsets(leading: 3)), width: 5, height: 1) == lines("   hi"))
        // Too small: the text has no room left, nothing is drawn.
        #expect(render(Text("hi").padding(), width: 2, height: 2) == lines("  ", "  "))
        #expect(render(Text("hi").padding(-4), width: 3, height: 1) == lines("hi "))
    }

    @Test func bordersInEveryStyleWithATitle() {
        #expect(render(Text("hi").border(), width: 4, height: 3) == lines("┌──┐", "│hi│", "└──┘"))
        #expect(render(Text("hi").border(.rounded), width: 4, height: 3) == lines("╭──╮", "│hi│", "╰──╯"))
        #expect(render(Text("hi").border(.double), width: 4, height: 3) == lines("╔══╗", "║hi║", "╚══╝"))
        #expect(render(Text("hi").border(.heavy), width: 4, height: 3) == lines("┏━━┓", "┃hi┃", "┗━━┛"))
        #expect(render(Text("x").border(title: "Notes"), width: 10, height: 3) == lines("┌ Notes ─┐", "│x       │", "└────────┘"))
        // A title too long is truncated and keeps one cell of edge.
        #expect(render(Text("x").border(title: "Notebook"), width: 9, height: 3) == lines("┌ Note…─┐", "│x      │", "└───────┘"))
        // The root fills the screen, so its border goes around all of it.
        #expect(Text("hi").border().sizeThatFits(ProposedSize(width: 10, height: 10)) == Size(width: 4, height: 3))
    }

    /// A stack measures a child's least by offering it nothing: a titled
    /// border asks for its whole title even then, so a pane beside a
    /// greedy one keeps "┌ Stepper ─┐" (it was "┌ Steppe…─┐").
    @Test func aTitledBorderAsksForRoomForItsTitle() {
        #expect(Text("x").border(title: "Stepper").sizeThatFits(ProposedSize(width: 0, height: 3)) == Size(width: 12, height: 3))
        #expect(Text("x").border(title: "").sizeThatFits(ProposedSize(width: 0, height: 3)) == Size(width: 2, height: 3))
        let row = HStack {
            Text(String(repeating: "x", count: 30)).border(title: "Log")
            Text("count").border(title: "Stepper")
        }
        #expect(render(row, width: 30, height: 3) == lines(
            "┌ Log ───────────┐┌ Stepper ─┐",
            "│xxxxxxxxxxxxxxx…││count     │",
            "└────────────────┘└──────────┘"
        ))
    }

    @Test func aBorderWithoutRoomDrawsTheViewAlone() {
        #expect(render(Text("hi").border(), width: 1, height: 1) == lines("…"))
        #expect(render(Text("hi").border(), width: 2, height: 2) == lines("┌┐", "└┘"))
        #expect(render(Text("hi").border(), width: 3, height: 1) == lines("hi "))
        #expect(render(Text("hi").border(), width: 0, height: 0) == "")
    }

    @Test func framesFixAndBoundTheSize() {
        let row = HStack {
            Text("name").frame(width: 6)
            Text("value")
        }
        #expect(render(row, width: 12, height: 1) == lines("name  value "))
        #expect(render(Text("abcdefgh").frame(width: 4), width: 10, height: 1) == lines("abc…      "))
        #expect(render(Text("hi").frame(width: 6, height: 3, alignment: .center), width: 6, height: 3) == lines("      ", "  hi  ", "      "))
        #expect(render(Text("hi").frame(width: 6, alignment: .trailing), width: 6, height: 1) == lines("    hi"))
        #expect(Text("hi").frame(width: -3, height: -1).sizeThatFits(ProposedSize(width: 5, height: 5)) == .zero)
        #expect(Text("hi").frame(maxWidth: .max).sizeThatFits(ProposedSize(width: 9, height: 1)) == Size(width: 9, height: 1))
        #expect(Text("hi").frame(maxWidth: 4).sizeThatFits(ProposedSize(width: 9, height: 1)) == Size(width: 4, height: 1))
        #expect(Text("hi").frame(minHeight: 3).sizeThatFits(ProposedSize(width: 9, height: 1)) == Size(width: 2, height: 3))
    }

    @Test func backgroundFillsTheWholeRectangle() {
        let view = VStack {
            Text("Title").frame(maxWidth: .max).background(.blue)
            Text("body")
        }
        let grid = canvas(view, width: 8, height: 2).grid
        #expect(grid.text == "Title\nbody\n")
        #expect((0..<8).allSatisfy { grid[x: $0, y: 0].style.background == .blue })
        #expect(grid[x: 0, y: 1].style.background == .default)
    }

    @Test func styleModifiersAreInheritedByTheSubtree() {
        let view = VStack {
            Text("a")
            Text("b").foreground(.red)
        }.bold().foreground(.green).underline()
        let grid = canvas(view, width: 2, height: 2).grid
        #expect(grid[x: 0, y: 0].style == Style(foreground: .green, attributes: [.bold, .underline]))
        #expect(grid[x: 0, y: 1].style == Style(foreground: .red, attributes: [.bold, .underline]))
        let border = canvas(Text("x").border().foreground(.cyan).dim(), width: 3, height: 3).grid
        #expect(border[x: 0, y: 0].style == Style(foreground: .cyan, attributes: .dim))
        #expect(canvas(Text("x").italic().reverse().style(Style(attributes: .strikethrough)), width: 1, height: 1).grid[x: 0, y: 0].style.attributes == [.italic, .reverse, .strikethrough])
    }
}
