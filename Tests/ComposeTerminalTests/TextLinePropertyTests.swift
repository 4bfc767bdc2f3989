@testable import ComposeTerminal
import PropertyBased
import Testing

/// The one-line fast path of `Text` (`lineColumns`, drawn from its bytes by
/// `LineClusters`) against the general one (`layout(width:)`, one
/// `Character` at a time, then `TextLine.draw`): same columns, same cells,
/// for random strings of ASCII, combining marks, CJK, emoji sequences,
/// control characters and line breaks, at every width.
@MainActor
@Suite struct TextLinePropertyTests {
    static let pieces = [
        "a", "Z", " ", "~", "e\u{301}", "日", "本", "😀", "👩‍💻", "❤\u{FE0F}", "\u{7}", "\u{7F}", "\u{85}",
        "\r\n", "\n", "\t", "\r", "x\u{200D}", "\u{1F1EB}\u{1F1F7}", "ü", "\u{0600}1",
        // Simple scalars (read without grapheme breaking) and what joins them.
        "é", "Ж", "가", "ア", "Ａ", "©", "\u{3099}", "\u{302A}", "\u{1100}", "\u{11A8}", "\u{483}", "\u{AD}",
    ]

    @Test func theFastPathIsTheGeneralOne() async {
        let piece = Gen.int(in: 0...(Self.pieces.count - 1))
        await propertyCheck(count: 1500, input: piece.array(of: 0...30), Gen.int(in: 0...40)) { indices, width in
            let string = indices.map { Self.pieces[$0] }.joined()
            let text = Text(string).bold() + Text("ok").foreground(.red)
            let lines = text.layout(width: width)
            guard let columns = text.lineColumns else {
                // Not one line: a break or a tab is in it.
                #expect(string.contains { $0.isNewline || $0 == "\t" }, "\(string.unicodeScalars.map { $0.value })")
                return
            }
            #expect(lines.count == 1, "\(string.unicodeScalars.map { $0.value })")
            #expect(lines.first?.width == columns, "\(string.unicodeScalars.map { $0.value })")
            let rect = Rect(x: 1, y: 0, width: width, height: 1)
            var fast = Canvas(size: Size(width: 44, height: 1))
            fast.draw(text, in: rect)
            var general = Canvas(size: Size(width: 44, height: 1))
            general.clipped(to: rect) { canvas in
                lines[0].draw(at: rect.origin, width: width, inherited: canvas.style, canvas: &canvas)
            }
            #expect(fast.grid == general.grid, "\(string.unicodeScalars.map { $0.value }) at width \(width): \(fast.grid.text) vs \(general.grid.text)")
        }
    }
}
