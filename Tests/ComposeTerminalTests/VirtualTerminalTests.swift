import ComposeTerminal
import Testing

@Suite struct VirtualTerminalTests {
    static func terminal(_ width: Int, _ height: Int, _ text: String) -> VirtualTerminal {
        var terminal = VirtualTerminal(size: Size(width: width, height: height))
        terminal.apply(Array(text.utf8))
        return terminal
    }

    @Test func textWrapsAndScrollsAtTheEdges() {
        let terminal = Self.terminal(4, 2, "abcdef\r\nxy\nz")
        #expect(terminal.grid.text == "xy\n  z\n")
        #expect(terminal.cursor == Point(x: 3, y: 1))
        // Writing the last column leaves the cursor there until the next character.
        let edge = Self.terminal(3, 2, "abc")
        #expect(edge.cursor == Point(x: 2, y: 0))
        #expect(edge.grid.text == "abc\n\n")
    }

    @Test func cursorMovesAndErasesAsXtermDoes() {
        var terminal = Self.terminal(6, 3, "\u{1B}[2;3Hx\u{1B}[Ay\u{1B}[2Bz\u{1B}[5Dw\u{1B}[Cv\u{8}u\u{1B}[Hq")
        #expect(terminal.grid.text == "q  y\n  x\nw u z\n")
        terminal.apply(Array("\u{1B}[3;3H\u{1B}[K\u{1B}[1;2H\u{1B}[1K".utf8))
        #expect(terminal.grid.text == "   y\n  x\nw\n")
        terminal.apply(Array("\u{1B}[2J".utf8))
        #expect(terminal.grid.text == "\n\n\n")
        // Moves stop at the edges.
        terminal.apply(Array("\u{1B}[99;99H".utf8))
        #expect(terminal.cursor == Point(x: 5, y: 2))
    }

    @Test func sgrSetsTheStyleOfWhatIsWritten() {
        let terminal = Self.terminal(8, 1, "\u{1B}[1;31ma\u{1B}[0;4;38;5;208;48;2;1;2;3mb\u{1B}[22;24;39;49;7mc\u{1B}[0;95;104md\u{1B}[me")
        #expect(terminal.grid[x: 0, y: 0].style == Style(foreground: .red, attributes: .bold))
        #expect(terminal.grid[x: 1, y: 0].style == Style(foreground: .palette(208), background: .rgb(1, 2, 3), attributes: .underline))
        #expect(terminal.grid[x: 2, y: 0].style == Style(attributes: .reverse))
        #expect(terminal.grid[x: 3, y: 0].style == Style(foreground: .brightMagenta, background: .brightBlue))
        #expect(terminal.grid[x: 4, y: 0].style == .plain)
        #expect(terminal.unsupported.isEmpty)
    }

    @Test func wideCharactersAndClustersTakeTheirColumns() {
        let terminal = Self.terminal(6, 2, "日e\u{301}👩‍💻x本")
        #expect(terminal.grid[x: 0, y: 0] == Cell("日", width: 2))
        #expect(terminal.grid[x: 1, y: 0].isContinuation)
        #expect(terminal.grid[x: 2, y: 0].character == "e\u{301}")
        #expect(terminal.grid[x: 3, y: 0] == Cell("👩‍💻", width: 2))
        #expect(terminal.grid[x: 5, y: 0] == Cell("x"))
        // 本 did not fit after x: it went to the next line.
        #expect(terminal.grid.text == "日é👩‍💻x\n本\n")
    }

    @Test func modesAreRecorded() {
        var terminal = Self.terminal(4, 2, "ab\u{1B}[?25l\u{1B}[?2004h\u{1B}[?1000;1006h")
        #expect(!terminal.isCursorVisible)
        #expect(terminal.isBracketedPaste)
        #expect(terminal.isMouseReporting)
        #expect(terminal.privateModes.contains(1006))
        terminal.apply(Array("\u{1B}[?1049hxy".utf8))
        #expect(terminal.isAlternateScreen)
        #expect(terminal.grid.text == "  xy\n\n")
        terminal.apply(Array("\u{1B}[?1049l\u{1B}[?25h\u{1B}[?2004l\u{1B}[?1000;1006l".utf8))
        #expect(!terminal.isAlternateScreen && terminal.isCursorVisible && !terminal.isBracketedPaste && !terminal.isMouseReporting)
        #expect(terminal.grid.text == "ab\n\n")
        #expect(terminal.cursor == Point(x: 2, y: 0))
    }

    @Test func unknownSequencesAreRecordedAndSkipped() {
        let terminal = Self.terminal(10, 1, "a\u{1B}[5nb\u{1B}]0;title\u{7}c\u{1B}7d\u{1B}[38;9mx\u{1B}[1:2m\u{1}e")
        #expect(terminal.grid.text == "abcdxe\n")
        #expect(terminal.unsupported == ["ESC [5n", "OSC 0;title", "ESC 7", "SGR 38;9", "ESC [1:2m", "control byte 1"])
    }

    @Test func overlongSequencesAreDroppedAndTheRecordIsBounded() {
        var terminal = VirtualTerminal(size: Size(width: 5, height: 1))
        terminal.apply(Array("\u{1B}[".utf8) + Array(repeating: UInt8(ascii: "1"), count: 10_000) + Array("Hok".utf8))
        #expect(terminal.grid.text == "ok\n")
        #expect(terminal.unsupported == ["a control sequence longer than \(VirtualTerminal.maximumSequenceLength) bytes"])
        for _ in 0..<300 { terminal.apply(Array("\u{1B}[5n".utf8)) }
        #expect(terminal.unsupported.count == VirtualTerminal.maximumUnsupported)
        #expect(terminal.unsupportedDropped == 201)
    }

    @Test func resizeKeepsWhatFits() {
        var terminal = Self.terminal(6, 2, "ab日\r\ncd")
        terminal.resize(to: Size(width: 3, height: 1))
        #expect(terminal.grid.text == "ab\n")
        #expect(terminal.cursor == Point(x: 2, y: 0))
    }
}
