import ComposeTerminal
import PropertyBased
import Testing

/// Random frames (text, styles, wide characters, emoji clusters, random
/// sizes and resizes, a cursor or none), rendered one after another and
/// applied to a VirtualTerminal: after every frame the terminal shows
/// exactly the frame's cells (characters, widths and styles) and the
/// cursor it asked for.
///
/// PropertyBased seeds each run and prints the seed of a failing case
/// (`.fixedSeed("…")` on the test replays it).
@Suite struct FrameRendererPropertyTests {
    /// Texts whose clusters never merge with a neighbour's (a lone
    /// regional indicator or skin-tone modifier would, in a grapheme-aware
    /// terminal).
    static let texts = [
        "a", "hello", "x y", " ", "日本", "中文字", "Ａ", "😀", "❤\u{FE0F}", "👩‍💻", "🇫🇷", "e\u{301}", "ab日c",
        "1\u{FE0F}\u{20E3}", "a\tb", "한글", "─┼─", "ｶﾀ",
    ]
    static let styles = [
        Style.plain, Style(foreground: .red, attributes: .bold), Style(background: .rgb(30, 30, 46)),
        Style(foreground: .palette(208), attributes: [.underline, .italic]), Style(attributes: .reverse),
        Style(foreground: .brightCyan, background: .blue, attributes: [.dim, .strikethrough]),
    ]

    /// One drawing operation: put text (kind 0–5) or fill a rectangle
    /// (kind 6) at x, y with a text and a style.
    static let operation = zip(Gen.int(in: 0...6), Gen.int(in: -2...14), Gen.int(in: -1...6), Gen.int(in: 0...(texts.count - 1)),
                               Gen.int(in: 0...(styles.count - 1)))
    /// A frame: a new size now and then (0 keeps it), operations on the
    /// last frame's cells, and a cursor (x < 0: none).
    static let frame = zip(Gen.int(in: 0...5), Gen.int(in: 1...14), Gen.int(in: 1...6), operation.array(of: 0...6),
                           Gen.int(in: -4...14), Gen.int(in: 0...6))

    @Test func theTerminalAlwaysShowsTheLastFrame() async {
        await propertyCheck(count: 400, input: Self.frame.array(of: 1...12)) { frames in
            var renderer = FrameRenderer(colorDepth: .trueColor)
            var grid = CellGrid(size: Size(width: 8, height: 3))
            var terminal = VirtualTerminal(size: grid.size)
            var bytes: [UInt8] = []
            for (index, (resize, width, height, operations, cursorX, cursorY)) in frames.enumerated() {
                if resize == 0 || index == 0 {
                    grid = CellGrid(size: Size(width: width, height: height))
                    terminal.resize(to: grid.size)
                }
                for (kind, x, y, text, style) in operations {
                    if kind == 6 {
                        grid.fill(Rect(x: x, y: y, width: text % 5 + 1, height: text % 3 + 1), with: Cell(" ", style: Self.styles[style]))
                    } else {
                        grid.put(Self.texts[text], at: Point(x: x, y: y), style: Self.styles[style],
                                 clip: kind == 5 ? Rect(x: 1, y: 0, width: 5, height: 9) : nil)
                    }
                }
                let cursor = cursorX < 0 ? nil : Point(x: cursorX, y: cursorY)
                bytes.removeAll(keepingCapacity: true)
                renderer.render(grid, cursor: cursor, into: &bytes)
                terminal.apply(bytes)
                let comment: Comment = "frame \(index):\n\(grid.text)terminal:\n\(terminal.grid.text)bytes: \(String(decoding: bytes, as: UTF8.self).debugDescription)"
                #expect(terminal.grid == grid, comment)
                #expect(terminal.unsupported.isEmpty, comment)
                #expect(terminal.style == .plain, comment)
                if let cursor, grid.bounds.contains(cursor) {
                    #expect(terminal.isCursorVisible && terminal.cursor == cursor, comment)
                } else {
                    #expect(!terminal.isCursorVisible, comment)
                }
                // Drawn again unchanged: nothing.
                bytes.removeAll(keepingCapacity: true)
                renderer.render(grid, cursor: cursor, into: &bytes)
                #expect(bytes.isEmpty, comment)
            }
        }
    }
}
