/// How far something has got, as a bar of block characters that fills
/// the width it is offered: full blocks, then one of the eighth blocks
/// (`▏▎▍▌▋▊▉`) for the part of a cell, so the bar moves in eighths of a
/// cell.
///
/// ```swift
/// ProgressBar(value: Double(done) / Double(total)).foreground(.green)
/// ```
public struct ProgressBar: PrimitiveView, Hashable, Sendable {
    /// The fraction done, 0 to 1.
    public let value: Double

    /// A bar `value` full; values below 0 (and NaN) count as 0, above 1 as 1.
    public init(value: Double) {
        self.value = value.isNaN ? 0 : min(1, max(0, value))
    }

    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width, height: 1)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        let width = rect.size.width
        guard width > 0, rect.size.height > 0 else { return }
        let filled = Int((value * Double(width * 8)).rounded(.down))
        let full = filled / 8, part = filled % 8
        var bar = String(repeating: "█", count: full)
        if part > 0 { bar.append(Self.eighths[part - 1]) }
        canvas.fill(Rect(x: rect.origin.x, y: rect.origin.y, width: width, height: 1))
        canvas.put(bar, at: rect.origin)
    }
}
