import ComposeTerminal
import Testing

@Suite struct CellGridTests {
    @Test func textIsWrittenClippedAndReadBack() {
        var grid = CellGrid(size: Size(width: 6, height: 2))
        let used = grid.put("hello world", at: Point(x: 1, y: 1))
        #expect(used == 5)
        #expect(grid.text == "\n hello\n")
    }

    @Test func wideCharactersTakeTwoCellsAndNeverHalfFit() {
        var grid = CellGrid(size: Size(width: 5, height: 1))
        grid.put("日本語", at: .zero)
        #expect(grid[x: 0, y: 0].width == 2)
        #expect(grid[x: 1, y: 0].isContinuation)
        // The third character would need columns 4 and 5: column 4 stays blank.
        #expect(grid.text == "日本\n")
        #expect(grid[x: 4, y: 0] == .blank)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var grid = CellGrid(size: Size(width: 4, height: 1))
        grid.put("日", at: Point(x: 1, y: 0))
        grid.put("a", at: Point(x: 2, y: 0))
        #expect(grid[x: 1, y: 0] == Cell(" "))
        #expect(grid.text == "  a\n")
    }

    @Test func widthsOfControlsCombiningAndEmoji() {
        #expect(CharacterWidth.of("\u{7}") == 0)
        #expect(CharacterWidth.of("é") == 1)
        #expect(CharacterWidth.of("e\u{301}") == 1)
        #expect(CharacterWidth.of("😀") == 2)
        #expect(CharacterWidth.of("❤️") == 2)
        #expect(CharacterWidth.of("中") == 2)
        #expect(CharacterWidth.of("Ａ") == 2)
    }
}
