import ComposeTerminal

/// Values over time as one row of block characters (`▁▂▃▄▅▆▇█`), the
/// newest at the right edge: as many of the last values as the width
/// holds, each scaled against the largest shown (or `floor`, if larger,
/// so that noise around nothing does not look like a spike).
struct Sparkline: PrimitiveView {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    let values: [Double]
    let floor: Double

    init(_ values: [Double], floor: Double = 0) {
        self.values = values
        self.floor = floor
    }

    func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width, height: min(1, proposal.height))
    }

    func draw(in rect: Rect, canvas: inout Canvas) {
        guard rect.size.width > 0, rect.size.height > 0 else { return }
        let shown = values.suffix(rect.size.width)
        canvas.put(Self.line(Array(shown), floor: floor), at: Point(x: rect.maxX - shown.count, y: rect.origin.y))
    }

    /// The blocks of `values`, one each.
    static func line(_ values: [Double], floor: Double) -> String {
        let top = max(floor, values.filter(\.isFinite).max() ?? 0)
        return String(values.map { value -> Character in
            guard top > 0, value.isFinite, value > 0 else { return blocks[0] }
            let level = Int((value / top * Double(blocks.count - 1)).rounded())
            return blocks[max(0, min(blocks.count - 1, level))]
        })
    }
}
