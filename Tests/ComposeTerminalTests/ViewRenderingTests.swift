import ComposeTerminal
import Testing

/// Views drawn into a canvas, rendered by difference and applied to a
/// VirtualTerminal: the screen shows what the canvas holds, frame after
/// frame, and a frame that moves a list's selection writes only its rows.
@MainActor
@Suite struct ViewRenderingTests {
    static func screen(selection: Int) -> some View {
        VStack {
            Text("Notes").bold()
            List(["milk", "日本茶", "eggs 🥚"], selection: selection) { item in Text(item) }
                .border(.rounded, title: "list")
        }
    }

    @Test func theTerminalShowsTheCanvasFrameAfterFrame() {
        var renderer = FrameRenderer(colorDepth: .trueColor)
        var terminal = VirtualTerminal(size: Size(width: 20, height: 7))
        var bytes: [UInt8] = []
        var sizes: [Int] = []
        for selection in [0, 1, 2, 2] {
            var canvas = Canvas(size: terminal.grid.size)
            canvas.draw(Self.screen(selection: selection))
            bytes.removeAll(keepingCapacity: true)
            renderer.render(canvas.grid, cursor: canvas.cursor, into: &bytes)
            terminal.apply(bytes)
            sizes.append(bytes.count)
            #expect(terminal.grid == canvas.grid, "\(terminal.grid.text)")
            #expect(terminal.unsupported.isEmpty)
        }
        #expect(terminal.grid.text.contains("日本茶"))
        // The first frame is drawn whole; a moved selection rewrites two
        // rows (far less); the same frame again writes nothing.
        #expect(sizes[1] < sizes[0] / 2 && sizes[2] < sizes[0] / 2, "\(sizes)")
        #expect(sizes[3] == 0)
    }
}
