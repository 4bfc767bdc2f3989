@testable import ComposeTerminal
import Testing

/// A grid stores cells packed: every cell comes back as it went in.
@Suite struct PackedCellTests {
    @Test func everyColourAndAttributeComesBack() {
        var colors: [Color] = [.default]
        for byte in [UInt8(0), 1, 7, 15, 128, 255] {
            colors += [.ansi(byte), .palette(byte), .rgb(byte, 0, 0), .rgb(0, byte, 0), .rgb(0, 0, byte), .rgb(byte, byte, byte)]
        }
        for color in colors {
            #expect(PackedCell.color(PackedCell.colorCode(color)) == color)
        }
        var grid = CellGrid(size: Size(width: 3, height: 1))
        for foreground in colors {
            for background in [Color.default, .rgb(255, 254, 253), .palette(200)] {
                for attributes in [Style.Attributes(), .bold, Style.Attributes(rawValue: 0x3F)] {
                    for (character, width) in [(Character("x"), UInt8(1)), ("日", 2), (" ", 0), ("e\u{301}", 1), ("\u{10FFFF}", 1), ("\r\n", 1)] {
                        let cell = Cell(character, style: Style(foreground: foreground, background: background, attributes: attributes), width: width)
                        grid.replace(at: 1, with: grid.pack(cell))
                        #expect(grid[x: 1, y: 0] == cell)
                        #expect(grid[x: 1, y: 0].character.unicodeScalars.elementsEqual(character.unicodeScalars))
                    }
                }
            }
        }
    }

    /// A grid written over and over with ever new clusters keeps a table
    /// no larger than about twice its cells, and shows the clusters set.
    @Test func theClusterTableStaysSmall() {
        var grid = CellGrid(size: Size(width: 4, height: 2))
        for index in 0..<1_000 {
            let character = Character("e" + String(repeating: "\u{301}", count: index % 50 + 1) + "\u{300}")
            grid.set(Cell(character), x: index % 4, y: index % 2)
            #expect(grid[x: index % 4, y: index % 2].character == character)
            #expect(grid.clusters.count <= 2 * 32 + 1)
        }
        // The same cluster twice is one entry.
        var other = CellGrid(size: Size(width: 4, height: 1))
        other.put("👩‍💻👩‍💻", at: .zero)
        #expect(other.clusters.count == 1)
        #expect(other.text == "👩‍💻👩‍💻\n")
    }
}
