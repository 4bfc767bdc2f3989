// What VirtualTerminal does with each control byte, escape sequence and run
// of text.

extension VirtualTerminal {
    /// A C0 control byte (or DEL) in the ground state.
    mutating func control(_ byte: UInt8) {
        switch byte {
        case 0x1B:
            state = .escape
            sequence.removeAll(keepingCapacity: true)
            sequenceTooLong = false
        case 0x0D:
            cursor.x = 0
            pendingWrap = false
        case 0x0A, 0x0B, 0x0C:
            lineFeed()
        case 0x08:
            cursor.x = max(0, cursor.x - 1)
            pendingWrap = false
        case 0x09:
            cursor.x = min(max(0, grid.size.width - 1), (cursor.x / 8 + 1) * 8)
            pendingWrap = false
        case 0x07, 0x00:
            break
        default:
            record("control byte \(byte)")
        }
    }

    mutating func lineFeed() {
        pendingWrap = false
        if cursor.y + 1 < grid.size.height {
            cursor.y += 1
        } else {
            scrollUp()
        }
    }

    /// Moves every row up one, a blank row at the bottom.
    mutating func scrollUp() {
        let size = grid.size
        var scrolled = CellGrid(size: size)
        for y in 1..<max(1, size.height) {
            for x in 0..<size.width { scrolled.set(grid[x: x, y: y], x: x, y: y - 1) }
        }
        grid = scrolled
    }

    /// `ESC [ params final`.
    mutating func controlSequence(final: UInt8) {
        let isPrivate = sequence.first == UInt8(ascii: "?")
        let body = isPrivate ? sequence.dropFirst() : sequence[...]
        guard let parameters = Self.parameters(body) else {
            record("ESC [\(Self.printable(sequence))\(Self.printable([final]))")
            return
        }
        let first = parameters.first ?? 0
        let count = max(1, first)
        let width = grid.size.width, height = grid.size.height
        switch (isPrivate, final) {
        case (false, UInt8(ascii: "H")), (false, UInt8(ascii: "f")):
            let row = max(1, first), column = max(1, parameters.count > 1 ? parameters[1] : 1)
            moveCursor(x: column - 1, y: row - 1)
        case (false, UInt8(ascii: "A")):
            moveCursor(x: cursor.x, y: cursor.y - count)
        case (false, UInt8(ascii: "B")):
            moveCursor(x: cursor.x, y: cursor.y + count)
        case (false, UInt8(ascii: "C")):
            moveCursor(x: cursor.x + count, y: cursor.y)
        case (false, UInt8(ascii: "D")):
            moveCursor(x: cursor.x - count, y: cursor.y)
        case (false, UInt8(ascii: "J")):
            switch first {
            case 0:
                erase(row: cursor.y, from: cursor.x, to: width)
                for y in cursor.y + 1..<max(cursor.y + 1, height) { erase(row: y, from: 0, to: width) }
            case 1:
                for y in 0..<cursor.y { erase(row: y, from: 0, to: width) }
                erase(row: cursor.y, from: 0, to: cursor.x + 1)
            case 2, 3:
                for y in 0..<height { erase(row: y, from: 0, to: width) }
            default:
                record("ESC [\(first)J")
            }
        case (false, UInt8(ascii: "K")):
            switch first {
            case 0: erase(row: cursor.y, from: cursor.x, to: width)
            case 1: erase(row: cursor.y, from: 0, to: cursor.x + 1)
            case 2: erase(row: cursor.y, from: 0, to: width)
            default: record("ESC [\(first)K")
            }
        case (false, UInt8(ascii: "m")):
            selectGraphicRendition(parameters.isEmpty ? [0] : parameters)
        case (true, UInt8(ascii: "h")), (true, UInt8(ascii: "l")):
            for mode in parameters { setPrivateMode(mode, final == UInt8(ascii: "h")) }
        default:
            record("ESC [\(Self.printable(sequence))\(Self.printable([final]))")
        }
    }

    /// The numbers of `1;2;3` (an empty one is 0); nil when anything else
    /// is there (intermediate bytes, `:` sub-parameters, huge numbers).
    static func parameters(_ bytes: ArraySlice<UInt8>) -> [Int]? {
        var result: [Int] = []
        var current = 0, digits = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if digits > 6 { return nil }
                current = current * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: ";"):
                result.append(current)
                current = 0
                digits = 0
            default:
                return nil
            }
        }
        if !bytes.isEmpty { result.append(current) }
        return result
    }

    mutating func moveCursor(x: Int, y: Int) {
        cursor = Point(x: min(max(0, x), max(0, grid.size.width - 1)), y: min(max(0, y), max(0, grid.size.height - 1)))
        pendingWrap = false
    }

    /// Blanks columns `from..<to` of `row` in the current background (as
    /// xterm erases); a wide character cut by the range is blanked whole.
    mutating func erase(row: Int, from: Int, to: Int) {
        let blank = Cell(" ", style: Style(background: style.background))
        for x in max(0, from)..<max(max(0, from), min(to, grid.size.width)) { grid.set(blank, x: x, y: row) }
    }

    mutating func setPrivateMode(_ mode: Int, _ on: Bool) {
        switch mode {
        case 25:
            isCursorVisible = on
        case 1049:
            guard on != isAlternateScreen else { break }
            isAlternateScreen = on
            if on {
                savedMainScreen = (grid, cursor)
                grid = CellGrid(size: grid.size)
            } else if let saved = savedMainScreen {
                grid = saved.grid
                cursor = saved.cursor
                savedMainScreen = nil
            }
            pendingWrap = false
        default:
            break
        }
        if on { privateModes.insert(mode) } else { privateModes.remove(mode) }
    }

    /// `ESC [ ... m`.
    mutating func selectGraphicRendition(_ parameters: [Int]) {
        var index = 0
        while index < parameters.count {
            let code = parameters[index]
            index += 1
            switch code {
            case 0: style = .plain
            case 1: style.attributes.insert(.bold)
            case 2: style.attributes.insert(.dim)
            case 3: style.attributes.insert(.italic)
            case 4: style.attributes.insert(.underline)
            case 7: style.attributes.insert(.reverse)
            case 9: style.attributes.insert(.strikethrough)
            case 22: style.attributes.subtract([.bold, .dim])
            case 23: style.attributes.remove(.italic)
            case 24: style.attributes.remove(.underline)
            case 27: style.attributes.remove(.reverse)
            case 29: style.attributes.remove(.strikethrough)
            case 30...37: style.foreground = .ansi(UInt8(code - 30))
            case 39: style.foreground = .default
            case 40...47: style.background = .ansi(UInt8(code - 40))
            case 49: style.background = .default
            case 90...97: style.foreground = .ansi(UInt8(code - 90 + 8))
            case 100...107: style.background = .ansi(UInt8(code - 100 + 8))
            case 38, 48:
                let color: Color
                if index + 1 < parameters.count, parameters[index] == 5, parameters[index + 1] <= 255 {
                    color = .palette(UInt8(parameters[index + 1]))
                    index += 2
                } else if index + 3 < parameters.count, parameters[index] == 2,
                          parameters[index + 1 ... index + 3].allSatisfy({ $0 <= 255 }) {
                    color = .rgb(UInt8(parameters[index + 1]), UInt8(parameters[index + 2]), UInt8(parameters[index + 3]))
                    index += 4
                } else {
                    record("SGR \(parameters.map(String.init).joined(separator: ";"))")
                    return
                }
                if code == 38 { style.foreground = color } else { style.background = color }
            default:
                record("SGR \(code)")
            }
        }
    }

    /// Puts the pending text on the grid, one grapheme cluster at a time.
    mutating func flushText() {
        guard !text.isEmpty else { return }
        let string = String(decoding: text, as: UTF8.self)
        text.removeAll(keepingCapacity: true)
        for character in string { put(character) }
    }

    /// Writes one grapheme cluster at the cursor, wrapping first when it
    /// does not fit; a zero-width one (a lone combining mark) is dropped.
    mutating func put(_ character: Character) {
        let width = CharacterWidth.of(character)
        let size = grid.size
        guard width > 0, size.width >= width, size.height > 0 else { return }
        if pendingWrap || cursor.x + width > size.width {
            if cursor.x + width > size.width, !pendingWrap, width == 2 {
                // A wide character at the last column: that column is left
                // blank and the character goes to the next line.
                grid.set(Cell(" ", style: style), x: cursor.x, y: cursor.y)
            }
            cursor.x = 0
            lineFeed()
        }
        place(Cell(character, style: style, width: UInt8(width)), x: cursor.x)
        if width == 2 { place(.continuation(style), x: cursor.x + 1) }
        if cursor.x + width >= size.width {
            cursor.x = size.width - 1
            pendingWrap = true
        } else {
            cursor.x += width
        }
    }

    /// Puts one cell at `x` on the cursor's row. A wide character the
    /// write cuts in half loses its other half, which becomes a space in
    /// the current style (terminals differ on what it becomes: a renderer
    /// must rewrite it, and this model makes sure it does).
    mutating func place(_ cell: Cell, x: Int) {
        let y = cursor.y
        let old = grid[x: x, y: y]
        if old.isContinuation, x > 0 { grid.set(Cell(" ", style: style), x: x - 1, y: y) }
        if old.width == 2, x + 1 < grid.size.width { grid.set(Cell(" ", style: style), x: x + 1, y: y) }
        grid.set(cell, x: x, y: y)
    }
}
