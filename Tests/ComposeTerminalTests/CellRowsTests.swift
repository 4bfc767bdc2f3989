@testable import ComposeTerminal
import Testing

/// The renderer's one unsafe construct (docs/unsafe.md, "ComposeTerminal"):
/// a `memcmp` of two rows of cells. Run under AddressSanitizer (`make
/// test-asan`), a read past either array would fail here.
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
}
