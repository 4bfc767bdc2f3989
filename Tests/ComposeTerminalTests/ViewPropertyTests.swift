import ComposeTerminal
import PropertyBased
import Testing

/// Random view trees (every primitive and modifier, nested) drawn into a
/// random rectangle, sometimes empty or partly off the grid, of a grid
/// filled with a sentinel: nothing is written outside the rectangle, and
/// nothing crashes, at any size.
@MainActor
@Suite struct ViewPropertyTests {
    /// Reads a tree out of a list of numbers (so PropertyBased can shrink
    /// a failing case by shortening the list).
    @MainActor
    struct Genome {
        var numbers: [Int]
        var position = 0

        mutating func next(_ limit: Int) -> Int {
            guard !numbers.isEmpty, limit > 0 else { return 0 }
            defer { position += 1 }
            return abs(numbers[position % numbers.count]) % limit
        }

        static let strings = ["", "a", "hello world", "日本語 text", "😀x", "line one\nline two", "tab\there", "a very long line of text that will not fit anywhere"]

        mutating func string() -> String { Self.strings[next(Self.strings.count)] }

        mutating func view(depth: Int) -> any View {
            let leaf = depth >= 5 || position >= numbers.count * 2
            switch leaf ? next(6) : next(22) {
            case 0: return Text(string())
            case 1: return Text(string()).overflow(.wrap).bold()
            case 2: return TextField(string(), text: string(), cursor: next(20) - 5)
            case 3: return ProgressBar(value: Double(next(130) - 15) / 100)
            case 4: return Spacer(minLength: next(4))
            case 5: return Table(columns: [.init(string()), .init(string(), width: .fixed(next(12) - 2), alignment: .trailing)],
                                 rows: (0..<next(6)).map { _ in [string(), string()] }, selection: next(8) - 1)
            case 6:
                let left = string(), right = string()
                return HStack(spacing: next(2)) { Text(left); Spacer(); Text(right).overflow(.wrap) }
            case 7:
                let kids = children(depth: depth)
                return VStack(alignment: [.leading, .center, .trailing][next(3)], spacing: next(3) - 1) { for kid in kids { AnyViewBox(kid) } }
            case 8:
                let kids = children(depth: depth)
                return HStack(alignment: [.top, .center, .bottom][next(3)], spacing: next(3)) { for kid in kids { AnyViewBox(kid) } }
            case 9:
                let kids = children(depth: depth)
                return List(selection: next(10) - 2) { for kid in kids { AnyViewBox(kid) } }
            case 10:
                let kids = children(depth: depth)
                return ScrollView(offset: next(30) - 5) { for kid in kids { AnyViewBox(kid) } }
            case 11: return AnyViewBox(view(depth: depth + 1)).padding(next(4) - 1)
            case 12: return AnyViewBox(view(depth: depth + 1)).border([.plain, .rounded, .double, .heavy][next(4)], title: next(2) == 0 ? nil : string())
            case 13: return AnyViewBox(view(depth: depth + 1)).frame(width: next(2) == 0 ? nil : next(30) - 3, height: next(2) == 0 ? nil : next(12) - 2, alignment: .center)
            case 14: return AnyViewBox(view(depth: depth + 1)).frame(minWidth: next(10) - 1, maxWidth: next(2) == 0 ? .max : next(20), minHeight: next(4), maxHeight: next(2) == 0 ? nil : .max)
            case 15: return AnyViewBox(view(depth: depth + 1)).background(.blue)
            case 16: return AnyViewBox(view(depth: depth + 1)).foreground(.red).dim()
            case 17: return AnyViewBox(view(depth: depth + 1)).padding(EdgeInsets(top: next(3), leading: next(3), bottom: next(3), trailing: next(3)))
            case 18:
                let kids = children(depth: depth)
                return Group { for kid in kids { AnyViewBox(kid) } }
            case 19: return ForEach(0..<next(4)) { _ in Text("row") }
            case 20: return EmptyView()
            default: return List(["a", "b", "c"], selection: next(4)) { Text($0) }
            }
        }

        mutating func children(depth: Int) -> [any View] {
            (0..<next(4)).map { _ in view(depth: depth + 1) }
        }
    }

    /// An `any View` as a view (the test builds trees of existentials).
    struct AnyViewBox: View {
        let view: any View
        init(_ view: any View) { self.view = view }
        var body: some View { return Group(content: { Wrapped(view: view) }) }

        struct Wrapped: PrimitiveView {
            let view: any View
            func sizeThatFits(_ proposal: ProposedSize) -> Size { view.sizeThatFits(proposal) }
            func draw(in rect: Rect, canvas: inout Canvas) { canvas.draw(view, in: rect) }
        }
    }

    static let sentinel = Cell("#", style: Style(foreground: .magenta))

    @Test func randomTreesNeverDrawOutsideTheirRectangle() async {
        let genome = Gen.int(in: 0...10_000).array(of: 1...60)
        let grid = zip(Gen.int(in: 0...40), Gen.int(in: 0...14))
        let place = zip(Gen.int(in: -6...40), Gen.int(in: -4...14), Gen.int(in: -3...45), Gen.int(in: -3...16))
        await propertyCheck(count: 400, input: genome, grid, place) { numbers, gridSize, place in
            var genome = Genome(numbers: numbers)
            let view = genome.view(depth: 0)
            let rect = Rect(x: place.0, y: place.1, width: place.2, height: place.3)
            var canvas = Canvas(grid: CellGrid(size: Size(width: gridSize.0, height: gridSize.1), filling: Self.sentinel))
            canvas.draw(view, in: rect)
            let inside = rect.intersection(canvas.grid.bounds)
            for y in 0..<canvas.grid.size.height {
                for x in 0..<canvas.grid.size.width where !inside.contains(Point(x: x, y: y)) {
                    #expect(canvas.grid[x: x, y: y] == Self.sentinel, "cell \(x),\(y) outside \(rect) written, genome \(numbers)")
                }
            }
            // Every cell inside is whole: no wide character without its
            // continuation, no continuation without its character.
            for y in 0..<canvas.grid.size.height {
                for x in 0..<canvas.grid.size.width {
                    let cell = canvas.grid[x: x, y: y]
                    if cell.width == 2 { #expect(canvas.grid[x: x + 1, y: y].isContinuation, "genome \(numbers)") }
                    if cell.isContinuation { #expect(x > 0 && canvas.grid[x: x - 1, y: y].width == 2, "genome \(numbers)") }
                }
            }
            for region in canvas.focusRegions {
                #expect(inside.intersection(region.rect) == region.rect, "focus region \(region.rect) outside \(rect)")
                if let cursor = region.cursor { #expect(inside.contains(cursor)) }
            }
            // Measuring at any proposal never fails either.
            _ = view.sizeThatFits(ProposedSize(width: place.2, height: place.3))
        }
    }

    @Test func aViewThatContainsItselfIsCutAtTheMaximumDepth() {
        struct Forever: View {
            var body: some View { Forever().padding(0) }
        }
        let diagnostics = Diagnostics.collectUnattached {
            // Measured, it takes no room; drawn, it is cut (once reported).
            #expect(Forever().sizeThatFits(ProposedSize(width: 5, height: 2)) == .zero)
            #expect(render(VStack { Text("top"); Forever() }, width: 5, height: 2) == lines("top  ", "     "))
            let drawn = canvas(Forever(), width: 5, height: 2)
            #expect(drawn.wasCut)
            #expect(drawn.grid.text == "\n\n")
        }
        #expect(diagnostics.map(\.code) == [.viewRecursion])
    }
}
