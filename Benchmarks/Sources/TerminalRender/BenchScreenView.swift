import ComposeTerminal

/// The benchmark's screen as views, as an app would describe it: a title
/// bar, 57 rows of a list (the app's state: made once) in four styles,
/// and a status line that changes every frame. Each frame builds the view
/// tree anew, lays it out and draws it into a canvas, as the runtime does.
struct BenchScreenView: View {
    let rows: [String]
    let frame: Int

    var body: some View {
        VStack {
            HStack {
                Text(" compose top — 200x60 benchmark").bold()
                Spacer()
            }.reverse()
            List(rows.indices, selection: 3) { index in
                Text(rows[index]).foreground(palette[index % palette.count])
            }
            Text(status).foreground(.brightGreen).bold()
            Text("q quit  Tab next").dim()
        }
    }

    var status: String {
        let pattern = Array("frame \(frame % 10): connections 12, events/s 1034, lag 0.3 ms; ")
        return String((0..<200).map { pattern[($0 + frame) % pattern.count] })
    }

    static let palette: [Color] = [.default, .cyan, .rgb(250, 179, 135), .gray]
    var palette: [Color] { Self.palette }

    /// The list's rows: words, a run of CJK in every fourth.
    static func makeRows() -> [String] {
        (0..<57).map { y in
            (0..<24).map { column in y % 4 == 0 && column % 5 == 2 ? "日本語の文字" : "word\(y * 31 + column)" }.joined(separator: " ")
        }
    }
}

/// Frames of the view, one changed line each (`view-line`) or drawn whole
/// (`view-full`): the view's evaluation, layout, drawing and the diff.
@MainActor @inline(never)
func renderViews(_ n: Int, whole: Bool) {
    let rows = BenchScreenView.makeRows()
    let size = Size(width: 200, height: 60)
    var renderer = FrameRenderer(colorDepth: .trueColor)
    var bytes: [UInt8] = []
    for index in 0...n {
        var canvas = Canvas(size: size)
        canvas.draw(BenchScreenView(rows: rows, frame: 1 + index & 1))
        bytes.removeAll(keepingCapacity: true)
        if whole { renderer.invalidate() }
        renderer.render(canvas.grid, cursor: canvas.cursor, into: &bytes)
        checksum &+= bytes.count
    }
}

/// The bytes of a one-line frame of the view.
@MainActor
func viewFrameBytes() -> Int {
    let rows = BenchScreenView.makeRows()
    var renderer = FrameRenderer(colorDepth: .trueColor)
    var bytes: [UInt8] = []
    for frame in 1...2 {
        var canvas = Canvas(size: Size(width: 200, height: 60))
        canvas.draw(BenchScreenView(rows: rows, frame: frame))
        bytes.removeAll(keepingCapacity: true)
        renderer.render(canvas.grid, cursor: canvas.cursor, into: &bytes)
    }
    return bytes.count
}
