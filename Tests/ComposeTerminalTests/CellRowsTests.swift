@testable import ComposeTerminal
import Testing

/// The renderer's one unsafe construct (docs/unsafe.md, "ComposeTerminal"):
/// two rows of cells compared as 16-byte vectors, the padding masked. Run
/// under AddressSanitizer (`make test-asan`), a read past either array
/// would fail here.
@Suite struct CellRowsTests {
    @Test func equalBytesAreEqualCellsAndEveryRangeStaysInBounds() {
        var a = CellGrid(size: Size(width: 7, height: 3))
        a.put("ab日👩‍💻", at: Point(x: 0, y: 1), style: Style(foreground: .rgb(1, 2, 3)))
        // A large string (more than 15 bytes of UTF-8) lives in storage.
        a.set(Cell(Character("👨‍👩‍👧‍👦"), width: 2), x: 5, y: 2)
        let b = a
        for row in 0..<3 {
            #expect(CellRows.identical(a.cells, b.cells, from: row * 7, count: 7))
        }
        // Every start and count at the edges, and past them (refused).
        for start in -1...21 {
            for count in 0...22 {
                let result = CellRows.identical(a.cells, b.cells, from: start, count: count)
                let inBounds = start >= 0 && start + count <= 21
                #expect(result == (count == 0 || inBounds), "\(start) \(count)")
            }
        }
        #expect(CellRows.identical([], [], from: 0, count: 0))
        #expect(!CellRows.identical([], [], from: 0, count: 1))
    }

    @Test func aDifferenceAnywhereInARowIsSeen() {
        let base = CellGrid(size: Size(width: 5, height: 2))
        for x in 0..<5 {
            for cell in [Cell("x"), Cell(" ", style: Style(attributes: .bold)), Cell(" ", style: Style(background: .palette(3))),
                         Cell(" ", width: 0)] {
                var changed = base
                changed.set(cell, x: x, y: 1)
                #expect(CellRows.identical(base.cells, changed.cells, from: 0, count: 5))
                #expect(!CellRows.identical(base.cells, changed.cells, from: 5, count: 5), "\(x) \(cell)")
            }
        }
    }

    /// The bytes past `MemoryLayout<Cell>.size` in each cell's stride are
    /// padding: whatever they hold, equal cells compare identical. (A mask
    /// that let padding through would make every row of a fresh frame look
    /// changed, or, read unmasked, depend on uninitialized bytes.)
    @Test func paddingBytesNeverDecide() throws {
        try #require(CellRows.layoutFits)
        let cells = [Cell("a"), Cell("日", width: 2), Cell(" ", width: 0), Cell(Character("👨‍👩‍👧‍👦"), style: Style(foreground: .rgb(1, 2, 3)))]
        var a = cells
        var b = cells
        for (array, fill) in [(0, UInt8(0xA5)), (1, UInt8(0x5A))] {
            func scribble(_ buffer: UnsafeMutableBufferPointer<Cell>) {
                let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
                for index in 0..<buffer.count {
                    for byte in MemoryLayout<Cell>.size..<MemoryLayout<Cell>.stride {
                        raw.storeBytes(of: fill, toByteOffset: index * MemoryLayout<Cell>.stride + byte, as: UInt8.self)
                    }
                }
            }
            if array == 0 { a.withUnsafeMutableBufferPointer { scribble($0) } } else { b.withUnsafeMutableBufferPointer { scribble($0) } }
        }
        #expect(a == b)
        for start in 0..<cells.count {
            for count in 1...(cells.count - start) {
                #expect(CellRows.identical(a, b, from: start, count: count), "\(start) \(count)")
            }
        }
    }

    /// The proof's claim, checked on random rows: the comparison says
    /// "identical" only for equal cells (else a changed cell would not be
    /// drawn), and says it for every range a copy left untouched (else the
    /// fast path would never be taken). The cells include large characters
    /// built at run time, each in a storage of its own (equal text, other
    /// storage: "not identical", only slower), every colour case and the
    /// last meaningful byte (the width).
    @Test func identicalMeansEqualOnRandomRowsOfEveryKindOfCell() {
        var generator = SplitMix64(seed: 0x5EED_CE11)
        let family = "👨‍👩‍👧‍👦"
        func character() -> Character {
            switch generator.next() % 6 {
            case 0: return "a"
            case 1: return " "
            case 2: return "日"
            case 3: return Character(family)
            // The same large text in a new storage each time.
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
            let a = (0..<count).map { _ in cell() }
            var b = a
            var touched = Set<Int>()
            for _ in 0..<Int(generator.next() % 3) {
                let index = Int(generator.next() % UInt64(count))
                b[index] = cell()
                touched.insert(index)
            }
            for start in 0..<count {
                for length in 1...(count - start) {
                    let range = start..<(start + length)
                    let identical = CellRows.identical(a, b, from: start, count: length)
                    if identical {
                        #expect(Array(a[range]) == Array(b[range]), "claimed identical: \(Array(a[range])) \(Array(b[range]))")
                    }
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
