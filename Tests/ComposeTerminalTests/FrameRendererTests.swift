import ComposeTerminal
import Testing

/// The renderer's bytes for small cases, ESC shown as "⎋".
@Suite struct FrameRendererTests {
    /// One frame's bytes, readable.
    static func frame(_ renderer: inout FrameRenderer, _ grid: CellGrid, cursor: Point? = nil) -> String {
        var bytes: [UInt8] = []
        renderer.render(grid, cursor: cursor, into: &bytes)
        return String(String(decoding: bytes, as: UTF8.self).unicodeScalars.map { $0 == "\u{1B}" ? "⎋" : Character($0) })
    }

    static func grid(_ width: Int, _ height: Int, _ lines: [String] = []) -> CellGrid {
        var grid = CellGrid(size: Size(width: width, height: height))
        for (y, line) in lines.enumerated() { grid.put(line, at: Point(x: 0, y: y)) }
        return grid
    }

    @Test func theFirstFrameIsDrawnWholeAndAnUnchangedOneWritesNothing() {
        var renderer = FrameRenderer()
        let grid = Self.grid(6, 3, ["ab", "", "  c"])
        // Hide the cursor, reset, home, clear; then only what is not blank.
        #expect(Self.frame(&renderer, grid) == "⎋[?25l⎋[0m⎋[H⎋[2Jab⎋[2Bc")
        #expect(Self.frame(&renderer, grid) == "")
        #expect(Self.frame(&renderer, Self.grid(6, 3, ["ab", "", "  c"])) == "")
    }

    @Test func oneChangedCellWritesOneMoveAndTheCharacter() {
        var renderer = FrameRenderer()
        var grid = Self.grid(10, 3, ["hello"])
        _ = Self.frame(&renderer, grid)
        grid.put("x", at: Point(x: 7, y: 2))
        #expect(Self.frame(&renderer, grid) == "⎋[3;8Hx")
        grid.put("y", at: Point(x: 0, y: 2))
        // The cursor stands after the x: a carriage return is shorter.
        #expect(Self.frame(&renderer, grid) == "\ry")
        grid.put("z", at: Point(x: 1, y: 2))
        // Right after the last write: no move at all.
        #expect(Self.frame(&renderer, grid) == "z")
    }

    @Test func movesAreTheShortestOfRewritingRelativeAndAbsolute() {
        var renderer = FrameRenderer()
        var grid = Self.grid(40, 4, ["abcdefghijklmnopqrstuvwxyz", "0123456789"])
        _ = Self.frame(&renderer, grid)
        // Two changes three cells apart on one row: the cells between are
        // rewritten (2 bytes) rather than moved over (ESC[2C, 4 bytes).
        grid.put("X", at: Point(x: 0, y: 0))
        grid.put("Y", at: Point(x: 3, y: 0))
        #expect(Self.frame(&renderer, grid) == "⎋[HXbcY")
        // Far apart on one row: a relative move right.
        grid.put("Z", at: Point(x: 20, y: 0))
        #expect(Self.frame(&renderer, grid) == "⎋[16CZ")
        // The start of the next row: CR LF.
        grid.put("A", at: Point(x: 21, y: 0))
        grid.put("B", at: Point(x: 0, y: 1))
        #expect(Self.frame(&renderer, grid) == "A\r\nB")
        // Straight down: a relative move down.
        grid.put("C", at: Point(x: 1, y: 3))
        #expect(Self.frame(&renderer, grid) == "⎋[2BC")
        // Back left on the same row.
        grid.put("D", at: Point(x: 0, y: 3))
        #expect(Self.frame(&renderer, grid) == "\rD")
    }

    @Test func styleIsSetOnlyWhenItChangesAndResetAtTheEnd() {
        var renderer = FrameRenderer()
        var grid = Self.grid(10, 2)
        _ = Self.frame(&renderer, grid)
        let red = Style(foreground: .red, attributes: .bold)
        grid.put("abc", at: .zero, style: red)
        #expect(Self.frame(&renderer, grid) == "⎋[0;1;31mabc⎋[0m")
        grid.put("d", at: Point(x: 3, y: 0), style: Style(foreground: .rgb(1, 2, 3), background: .palette(200), attributes: [.underline, .reverse]))
        grid.put("e", at: Point(x: 4, y: 0), style: Style(foreground: .brightCyan, background: .gray))
        #expect(Self.frame(&renderer, grid) == "⎋[0;4;7;38;2;1;2;3;48;5;200md⎋[0;96;100me⎋[0m")
        grid.put("f", at: Point(x: 4, y: 0))
        #expect(Self.frame(&renderer, grid) == "⎋[Df")
    }

    @Test func colorsAreDegradedToTheTerminalsDepth() {
        let style = Style(foreground: .rgb(255, 0, 0), background: .palette(21), attributes: .bold)
        var grid = Self.grid(4, 1)
        grid.put("a", at: .zero, style: style)
        var none = FrameRenderer(colorDepth: .none)
        #expect(Self.frame(&none, grid) == "⎋[?25l⎋[0m⎋[H⎋[2J⎋[0;1ma⎋[0m")
        var sixteen = FrameRenderer(colorDepth: .ansi16)
        #expect(Self.frame(&sixteen, grid) == "⎋[?25l⎋[0m⎋[H⎋[2J⎋[0;1;91;44ma⎋[0m")
        var palette = FrameRenderer(colorDepth: .palette256)
        #expect(Self.frame(&palette, grid) == "⎋[?25l⎋[0m⎋[H⎋[2J⎋[0;1;38;5;196;48;5;21ma⎋[0m")
        // A change of depth redraws the next frame whole.
        palette.colorDepth = .ansi16
        #expect(Self.frame(&palette, grid) == "⎋[?25l⎋[0m⎋[H⎋[2J⎋[0;1;91;44ma⎋[0m")
        // Under NO_COLOR a space in colour is blank; a reversed one is not.
        var coloured = Self.grid(3, 1)
        coloured.fill(Rect(x: 0, y: 0, width: 1, height: 1), with: Cell(" ", style: Style(background: .red)))
        coloured.fill(Rect(x: 2, y: 0, width: 1, height: 1), with: Cell(" ", style: Style(attributes: .reverse)))
        var plain = FrameRenderer(colorDepth: .none)
        #expect(Self.frame(&plain, coloured) == "⎋[?25l⎋[0m⎋[H⎋[2J  ⎋[0;7m ⎋[0m")
    }

    @Test func wideCharactersAreWrittenWholeNeverHalf() {
        var renderer = FrameRenderer()
        var grid = Self.grid(8, 1, ["a日b"])
        #expect(Self.frame(&renderer, grid) == "⎋[?25l⎋[0m⎋[H⎋[2Ja日b")
        // Restyled: the pair is rewritten.
        grid.put("日", at: Point(x: 1, y: 0), style: Style(attributes: .bold))
        #expect(Self.frame(&renderer, grid) == "⎋[3D⎋[0;1m日⎋[0m")
        // A narrow character over the right half: the left half becomes a
        // space (CellGrid blanks it, keeping its style) and both are written.
        grid.put("x", at: Point(x: 2, y: 0))
        #expect(Self.frame(&renderer, grid) == "⎋[2D⎋[0;1m ⎋[0mx")
        // A wide character over two narrow ones, then narrow over it.
        grid.put("本", at: Point(x: 4, y: 0))
        #expect(Self.frame(&renderer, grid) == "b本")
        grid.put("ab", at: Point(x: 4, y: 0))
        #expect(Self.frame(&renderer, grid) == "⎋[2Dab")
    }

    @Test func writingOverHalfOfAShownWideCharacterRewritesItsOtherHalf() {
        var renderer = FrameRenderer()
        var grid = Self.grid(6, 1, ["x日y"])
        _ = Self.frame(&renderer, grid)
        // A wide character one column left of the old one: its left half
        // covers the old one's left half, so the old right half (now a
        // plain space in the grid after set's blanking) is written too.
        grid.put("本", at: Point(x: 0, y: 0))
        #expect(grid.text == "本 y\n")
        #expect(Self.frame(&renderer, grid) == "\r本 ")
    }

    @Test func malformedWideCellsAreWrittenAsSpaces() {
        var renderer = FrameRenderer()
        var grid = Self.grid(3, 1)
        // A wide cell in the last column, and a continuation on its own.
        grid.set(Cell("日", width: 2), x: 2, y: 0)
        grid.set(.continuation(Style(attributes: .underline)), x: 0, y: 0)
        #expect(Self.frame(&renderer, grid) == "⎋[?25l⎋[0m⎋[H⎋[2J⎋[0;4m ⎋[0m")
    }

    @Test func controlCharactersInCellsAreNeverSentToTheTerminal() {
        var renderer = FrameRenderer()
        var grid = Self.grid(7, 1)
        for (x, text) in ["\u{1B}", "\u{9B}", "\r", "\u{7F}", "\u{301}", "o"].enumerated() {
            grid.set(Cell(Character(text)), x: x, y: 0)
        }
        // A narrow cell holding a wide character is a space too.
        grid.set(Cell("日"), x: 6, y: 0)
        #expect(Self.frame(&renderer, grid) == "⎋[?25l⎋[0m⎋[H⎋[2J     o ")
    }

    @Test func aHugeClusterIsCutToItsFirstScalar() {
        var renderer = FrameRenderer()
        var grid = Self.grid(2, 1)
        grid.set(Cell(Character("e" + String(repeating: "\u{301}", count: 100))), x: 0, y: 0)
        #expect(Self.frame(&renderer, grid) == "⎋[?25l⎋[0m⎋[H⎋[2Je")
    }

    @Test func aSizeChangeOrInvalidateRedrawsWhole() {
        var renderer = FrameRenderer()
        _ = Self.frame(&renderer, Self.grid(4, 2, ["ab"]))
        #expect(Self.frame(&renderer, Self.grid(5, 2, ["ab"])) == "⎋[0m⎋[H⎋[2Jab")
        renderer.invalidate()
        #expect(Self.frame(&renderer, Self.grid(5, 2, ["ab"])) == "⎋[?25l⎋[0m⎋[H⎋[2Jab")
    }

    @Test func theCursorIsShownWhereTheFrameSaysAndHiddenWhileDrawing() {
        var renderer = FrameRenderer()
        var grid = Self.grid(10, 3, ["name: "])
        #expect(Self.frame(&renderer, grid, cursor: Point(x: 6, y: 0)) == "⎋[?25l⎋[0m⎋[H⎋[2Jname: ⎋[?25h")
        #expect(Self.frame(&renderer, grid, cursor: Point(x: 6, y: 0)) == "")
        grid.put("m", at: Point(x: 6, y: 0))
        #expect(Self.frame(&renderer, grid, cursor: Point(x: 7, y: 0)) == "⎋[?25lm⎋[?25h")
        // Only the cursor moves: no hiding.
        #expect(Self.frame(&renderer, grid, cursor: Point(x: 2, y: 2)) == "⎋[3;3H")
        #expect(Self.frame(&renderer, grid) == "⎋[?25l")
        // Outside the grid: hidden.
        #expect(Self.frame(&renderer, grid, cursor: Point(x: 10, y: 0)) == "")
    }

    @Test func theLastColumnLeavesTheCursorUnknown() {
        var renderer = FrameRenderer()
        var grid = Self.grid(3, 2)
        _ = Self.frame(&renderer, grid)
        grid.put("abc", at: .zero)
        grid.put("d", at: Point(x: 0, y: 1))
        // After writing the last column terminals differ (pending wrap):
        // the next move is absolute.
        #expect(Self.frame(&renderer, grid) == "abc⎋[2Hd")
    }

    @Test func anEmptyGridClearsTheScreen() {
        var renderer = FrameRenderer()
        #expect(Self.frame(&renderer, CellGrid(size: .zero)) == "⎋[?25l⎋[0m⎋[H⎋[2J")
        #expect(Self.frame(&renderer, CellGrid(size: .zero), cursor: .zero) == "")
    }
}
