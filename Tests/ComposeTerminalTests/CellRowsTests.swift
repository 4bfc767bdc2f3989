@testable import ComposeTerminal
import Testing

/// The renderer's row comparison (`CellRows.identical`): packed cells
/// compared as integers, clusters of several scalars through each grid's
/// own table.
@Suite struct CellRowsTests {
    @Test func equalRowsAreIdenticalAndEveryRangeOutsideIsRefused() {
        var a = CellGrid(size: Size(width: 7, height: 3))
        a.put("ab日👩‍💻", at: Point(x: 0, y: 1), style: Style(foreground: .rgb(1, 2, 3)))
        a.set(Cell(Character("👨‍👩‍👧‍👦"), width: 2), x: 5, y: 2)
        let b = a
        for row in 0..<3 {
            #expect(CellRows.identical(a, b, from: row * 7, count: 7))
        }
        // Every start and count at the edges, and past them (refused).
        for start in -1...21 {
            for count in 0...22 {
                let result = CellRows.identical(a, b, from: start, count: count)
                let inBounds = start >= 0 && start + count <= 21
                #expect(result == (count == 0 || inBounds), "\(start) \(count)")
            }
        }
        let empty = CellGrid(size: .zero)
        #expect(CellRows.identical(empty, empty, from: 0, count: 0))
        #expect(!CellRows.identical(empty, empty, from: 0, count: 1))
    }

    @Test func aDifferenceAnywhereInARowIsSeen() {
        let base = CellGrid(size: Size(width: 5, height: 2))
        for x in 0..<5 {
            for cell in [Cell("x"), Cell(" ", style: Style(attributes: .bold)), Cell(" ", style: Style(background: .palette(3))),
                         Cell(" ", style: Style(foreground: .rgb(0, 0, 1))), Cell(" ", width: 0), Cell(Character("e\u{301}"))] {
                var changed = base
                changed.set(cell, x: x, y: 1)
                #expect(CellRows.identical(base, changed, from: 0, count: 5))
                #expect(!CellRows.identical(base, changed, from: 5, count: 5), "\(x) \(cell)")
            }
        }
    }

    /// A cluster of several scalars is an index into its grid's table: the
    /// same cluster at another index of another grid is the same cell,
    /// another cluster at the same index is not.
    @Test func clustersAreComparedThroughTheirGridsTables() {
        let family = Character("👨‍👩‍👧‍👦"), coder = Character("👩‍💻")
        var a = CellGrid(size: Size(width: 4, height: 1))
        a.set(Cell(family, width: 2), x: 0, y: 0)
        a.set(Cell(coder, width: 2), x: 2, y: 0)
        var b = CellGrid(size: Size(width: 4, height: 1))
        b.set(Cell(coder, width: 2), x: 2, y: 0)
        b.set(Cell(family, width: 2), x: 0, y: 0)
        #expect(a.storage != b.storage, "the tables are in another order")
        #expect(CellRows.identical(a, b, from: 0, count: 4))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        var c = CellGrid(size: Size(width: 4, height: 1))
        c.set(Cell(coder, width: 2), x: 0, y: 0)
        c.set(Cell(family, width: 2), x: 2, y: 0)
        #expect(c.storage == a.storage, "the same indices, other clusters")
        #expect(!CellRows.identical(a, c, from: 0, count: 4))
        #expect(!CellRows.identical(a, c, from: 0, count: 1))
        #expect(a != c)
    }

    /// A cluster is compared as a `Character`, as `Cell` compares: "e" and
    /// a combining acute (a cluster) is the "é" of one scalar.
    @Test func aClusterEqualsTheScalarItIsCanonicallyEquivalentTo() {
        var a = CellGrid(size: Size(width: 2, height: 1))
        a.set(Cell("\u{E9}"), x: 0, y: 0)
        var b = CellGrid(size: Size(width: 2, height: 1))
        b.set(Cell(Character("e\u{301}")), x: 0, y: 0)
        #expect(a.cells == b.cells)
        #expect(CellRows.identical(a, b, from: 0, count: 2))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        b.set(Cell(Character("e\u{300}")), x: 0, y: 0)
        #expect(!CellRows.identical(a, b, from: 0, count: 2))
    }

    /// On random rows of every kind of cell: "identical" exactly when the
    /// cells are equal (else a changed cell would not be drawn, or an
    /// unchanged row drawn again).
    @Test func identicalMeansEqualOnRandomRowsOfEveryKindOfCell() {
        var generator = SplitMix64(seed: 0x5EED_CE11)
        let family = "👨‍👩‍👧‍👦"
        func character() -> Character {
            switch generator.next() % 7 {
            case 0: return "a"
            case 6: return "\u{E9}"
            case 1: return " "
            case 2: return "日"
            case 3: return Character(family)
            case 4: return Character(String(family.unicodeScalars.prefix(5).map(Character.init)) + "\u{200D}👦")
            default: return "e\u{301}"
            }
        }
        func color() -> Color {
            let byte = UInt8(truncatingIfNeeded: generator.next() % 3)
            switch generator.next() % 4 {
            case 0: return .default
            case 1: return .ansi(byte)
            case 2: return .palette(byte)
            default: return .rgb(byte, 0, byte)
            }
        }
        func cell() -> Cell {
            Cell(character(), style: Style(foreground: color(), background: color(), attributes: Style.Attributes(rawValue: UInt8(generator.next() % 2))),
                 width: UInt8(generator.next() % 3))
        }
        var fastPaths = 0
        for _ in 0..<400 {
            let count = Int(generator.next() % 9) + 1
            let cells = (0..<count).map { _ in cell() }
            var a = CellGrid(size: Size(width: count, height: 1))
            var b = CellGrid(size: Size(width: count, height: 1))
            // Set directly in the storage: `set` would blank the halves of
            // the random wide cells.
            for (x, cell) in cells.enumerated() {
                a.replace(at: x, with: a.pack(cell))
                b.replace(at: count - 1 - x, with: b.pack(cells[count - 1 - x]))
            }
            var touched = Set<Int>()
            for _ in 0..<Int(generator.next() % 3) {
                let index = Int(generator.next() % UInt64(count))
                b.replace(at: index, with: b.pack(cell()))
                touched.insert(index)
            }
            for start in 0..<count {
                for length in 1...(count - start) {
                    let range = start..<(start + length)
                    let identical = CellRows.identical(a, b, from: start, count: length)
                    #expect(identical == (Array(a.cells[range]) == Array(b.cells[range])), "\(Array(a.cells[range])) \(Array(b.cells[range]))")
                    if touched.isDisjoint(with: range) {
                        #expect(identical, "an untouched range must be identical: \(range)")
                        fastPaths += 1
                    }
                }
            }
        }
        #expect(fastPaths > 0)
    }
}

/// A small seeded generator, so a failure repeats.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
