import ComposeTerminal
import Testing

@MainActor
@Suite struct TextViewTests {
    @Test func textIsDrawnAtTheTopLeftAndTruncatedWithAnEllipsis() {
        #expect(render(Text("hello"), width: 7, height: 1) == lines("hello  "))
        #expect(render(Text("hello world"), width: 7, height: 2) == lines("hello …", "       "))
        #expect(render(Text("hello"), width: 1, height: 1) == lines("…"))
        #expect(render(Text("hello"), width: 0, height: 1) == lines(""))
        #expect(render(Text("hello"), width: 3, height: 0) == "")
    }

    @Test func newlinesMakeRowsAndTheParentCutsThoseThatDoNotFit() {
        #expect(render(Text("one\ntwo\nthree"), width: 5, height: 2) == lines("one  ", "two  "))
        #expect(Text("one\ntwo\nthree").sizeThatFits(ProposedSize(width: 10, height: 1)) == Size(width: 5, height: 3))
        #expect(Text("").sizeThatFits(ProposedSize(width: 10, height: 1)) == Size(width: 0, height: 1))
    }

    @Test func wrappingBreaksAtSpacesAndInsideWordsTooLong() {
        let text = Text("the quick brown fox").overflow(.wrap)
        #expect(render(text, width: 10, height: 3) == lines("the quick ", "brown fox ", "          "))
        #expect(text.sizeThatFits(ProposedSize(width: 10, height: 0)) == Size(width: 9, height: 2))
        #expect(render(Text("abcdefgh").overflow(.wrap), width: 3, height: 3) == lines("abc", "def", "gh "))
        #expect(render(text, width: 5, height: 2) == lines("the  ", "quick"))
    }

    @Test func wideCharactersTakeTwoColumnsAndNeverHalfFit() {
        #expect(render(Text("日本語"), width: 6, height: 1) == lines("日本語"))
        // Truncated: "日" and "…" fit in 4 columns, "本" would need the 4th too.
        #expect(render(Text("日本語"), width: 4, height: 1) == lines("日… "))
        #expect(render(Text("日本語"), width: 1, height: 1) == lines("…"))
        #expect(Text("a😀b").sizeThatFits(ProposedSize(width: 10, height: 1)).width == 4)
    }

    @Test func stylesAreTheTextsOwnOverTheInheritedOne() {
        let view = (Text("a") + Text("b").bold().foreground(.red)).background(.blue).dim()
        let grid = canvas(view, width: 3, height: 1).grid
        #expect(grid[x: 0, y: 0].style == Style(background: .blue, attributes: .dim))
        #expect(grid[x: 1, y: 0].style == Style(foreground: .red, background: .blue, attributes: [.bold, .dim]))
        // Text's own background colours its cells only, not the rest of the row.
        #expect(grid[x: 2, y: 0].style == .plain)
    }

    @Test func tabsBecomeSpacesAndControlCharactersAreSkipped() {
        #expect(render(Text("a\tb\u{7}c"), width: 8, height: 1) == lines("a    bc "))
    }
}
