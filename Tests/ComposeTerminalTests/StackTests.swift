import ComposeTerminal
import Testing

@MainActor
@Suite struct StackTests {
    @Test func aVStackStacksItsChildrenWithSpacing() {
        let view = VStack(spacing: 1) {
            Text("one")
            Text("two")
        }
        #expect(render(view, width: 4, height: 4) == lines("one ", "    ", "two ", "    "))
        #expect(view.sizeThatFits(ProposedSize(width: 10, height: 10)) == Size(width: 3, height: 3))
        #expect(render(view, width: 4, height: 2) == lines("one ", "    "))
        #expect(render(view, width: 0, height: 0) == "")
    }

    @Test func alignmentPlacesNarrowerChildren() {
        let view = VStack(alignment: .trailing) {
            Text("a")
            Text("bbb")
        }
        #expect(render(view, width: 5, height: 2) == lines("    a", "  bbb"))
        let centered = VStack(alignment: .center) { Text("a"); Text("bbb") }
        #expect(render(centered, width: 5, height: 2) == lines("  a  ", " bbb "))
    }

    @Test func anHStackSharesItsWidthTheLeastFlexibleFirst() {
        let view = HStack(spacing: 1) {
            Text("name:")
            Text("a rather long value")
        }
        #expect(render(view, width: 30, height: 1) == lines("name: a rather long value     "))
        // Too narrow: both truncate, the shorter one keeps its share.
        #expect(render(view, width: 12, height: 1) == lines("name: a rat…"))
        #expect(render(view, width: 5, height: 1) == lines("n… a…"))
    }

    @Test func aSpacerPushesTheRestToTheEnd() {
        let row = HStack {
            Text("left")
            Spacer()
            Text("right")
        }
        #expect(render(row, width: 12, height: 1) == lines("left   right"))
        let column = VStack {
            Text("top")
            Spacer()
            Text("bottom")
        }
        #expect(render(column, width: 6, height: 4) == lines("top   ", "      ", "      ", "bottom"))
        // A spacer takes only what the others leave.
        let withList = VStack {
            List { Text("a"); Text("b"); Text("c") }
            Spacer()
            Text("end")
        }
        #expect(render(withList, width: 3, height: 4) == lines("a  ", "b  ", "c  ", "end"))
    }

    @Test func hStackAlignsShorterChildren() {
        let view = HStack(alignment: .bottom, spacing: 1) {
            Text("1\n2\n3")
            Text("x")
        }
        #expect(render(view, width: 3, height: 3) == lines("1  ", "2  ", "3 x"))
    }

    @Test func buildersTakeIfSwitchOptionalsAndLoops() {
        let items = ["a", "b"]
        let missing: String? = nil
        let present: String? = "p"
        enum Mode { case one, two }
        let mode = Mode.two
        let view = VStack {
            if items.isEmpty { Text("empty") } else { Text("full") }
            if let missing { Text(missing) }
            if let present { Text(present) }
            for item in items { Text(item) }
            ForEach(items) { item in Text(item.uppercased()) }
            switch mode {
            case .one: Text("one")
            case .two: Text("two")
            }
            Group {
                Text("g1")
                Text("g2")
            }
        }
        #expect(render(view, width: 4, height: 10) == lines("full", "p   ", "a   ", "b   ", "A   ", "B   ", "two ", "g1  ", "g2  ", "    "))
    }

    @Test func customViewsAreDrawnThroughTheirBody() {
        struct Header: View {
            let title: String
            var body: some View {
                HStack {
                    Text(title).bold()
                    Spacer()
                    Text("?")
                }
            }
        }
        #expect(render(Header(title: "Notes"), width: 8, height: 1) == lines("Notes  ?"))
        #expect(canvas(Header(title: "Notes"), width: 8, height: 1).grid[x: 0, y: 0].style.attributes == .bold)
    }
}
