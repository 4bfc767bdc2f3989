// The inner loops of FrameRenderer: which cells to write, how to get the
// cursor there, and the bytes of each cell. Nothing here allocates but the
// byte buffer's growth: cells are read from the grids' arrays in place,
// numbers are written digit by digit, characters as their UTF-8.

extension FrameRenderer {
    /// Writes the cells of `grid` that differ from `old` (every cell that
    /// is not blank when `old` is nil: the screen was just cleared), row by
    /// row, left to right.
    mutating func drawCells(_ grid: CellGrid, against old: CellGrid?, into bytes: inout [UInt8]) {
        let width = grid.size.width
        let cells = grid.storage
        let oldCells = old?.storage
        for y in 0..<grid.size.height {
            let row = y * width
            if let old, CellRows.identical(grid, old, from: row, count: width) { continue }
            var x = 0
            var forced = false
            while x < width {
                let cell = cells[row + x]
                let isLead = cell.width == 2 && x + 1 < width && cells[row + x + 1].width == 0
                let span = isLead ? 2 : 1
                let changed: Bool
                if let old, let oldCells {
                    let was = oldCells[row + x]
                    let wasLead = was.width == 2 && x + 1 < width && oldCells[row + x + 1].width == 0
                    changed = forced || isLead != wasLead || !CellGrid.same(cell, in: grid, was, in: old)
                        || (isLead && !grid.same(row + x + 1, as: old, row + x + 1))
                    // Writing over the left half of a wide character the
                    // terminal shows erases its right half: rewrite that too.
                    let last = x + span - 1
                    forced = changed && last + 1 < width && oldCells[row + last].width == 2 && oldCells[row + last + 1].width == 0
                } else {
                    changed = !isBlank(cell, isLead: isLead)
                }
                if changed {
                    beginDrawing(&bytes)
                    move(to: Point(x: x, y: y), in: grid, into: &bytes)
                    write(cell, of: grid, isLead: isLead, into: &bytes)
                    let next = x + span
                    cursorPosition = next < width ? Point(x: next, y: y) : nil
                }
                x += span
            }
        }
    }

    /// Whether `cell` looks like what clearing the screen leaves.
    func isBlank(_ cell: PackedCell, isLead: Bool) -> Bool {
        let space = cell.width == 1 ? cell.code == 0x20 : !isLead
        return space && (cell.isPlain || cell.style.degraded(to: colorDepth) == .plain)
    }

    /// Hides the cursor before the frame's first write.
    mutating func beginDrawing(_ bytes: inout [UInt8]) {
        guard !drawing else { return }
        drawing = true
        if cursorVisible != false {
            bytes.append(contentsOf: Sequences.hideCursor)
            cursorVisible = false
        }
    }

    /// Resets the style and shows the cursor where the frame wants it.
    mutating func finish(_ grid: CellGrid, cursor: Point?, into bytes: inout [UInt8]) {
        if activeStyle != .plain {
            bytes.append(contentsOf: Sequences.reset)
            activeStyle = .plain
        }
        if let cursor {
            if cursorPosition != cursor { move(to: cursor, in: grid, into: &bytes) }
            cursorPosition = cursor
            if cursorVisible != true {
                bytes.append(contentsOf: Sequences.showCursor)
                cursorVisible = true
            }
        } else if cursorVisible != false {
            bytes.append(contentsOf: Sequences.hideCursor)
            cursorVisible = false
        }
    }

    /// Moves the cursor to `target` by the shortest means: nothing, a
    /// carriage return (and line feed), the unchanged cells in between
    /// rewritten, a relative move, or an absolute `CUP`.
    mutating func move(to target: Point, in grid: CellGrid, into bytes: inout [UInt8]) {
        guard let at = cursorPosition else {
            Sequences.appendCursorPosition(target, to: &bytes)
            return
        }
        if at == target { return }
        if at.y == target.y {
            if target.x > at.x {
                let gap = target.x - at.x
                if gap <= 3, rewrite(grid, row: target.y, from: at.x, to: target.x, into: &bytes) { return }
                Sequences.appendCSI(gap, final: UInt8(ascii: "C"), to: &bytes)
            } else if target.x == 0 {
                bytes.append(0x0D)
            } else {
                Sequences.appendCSI(at.x - target.x, final: UInt8(ascii: "D"), to: &bytes)
            }
        } else if target.x == 0, target.y == at.y + 1 {
            bytes.append(0x0D)
            bytes.append(0x0A)
        } else if target.x == at.x {
            if target.y > at.y {
                Sequences.appendCSI(target.y - at.y, final: UInt8(ascii: "B"), to: &bytes)
            } else {
                Sequences.appendCSI(at.y - target.y, final: UInt8(ascii: "A"), to: &bytes)
            }
        } else {
            Sequences.appendCursorPosition(target, to: &bytes)
        }
    }

    /// Rewrites the cells `from..<to` of `row` (which the terminal already
    /// shows) when each is one printable ASCII byte in the active style;
    /// returns false, writing nothing, otherwise.
    func rewrite(_ grid: CellGrid, row: Int, from: Int, to: Int, into bytes: inout [UInt8]) -> Bool {
        let base = row * grid.size.width
        for x in from..<to {
            let cell = grid.storage[base + x]
            guard cell.width == 1, cell.code >= 0x20, cell.code < 0x7F, cell.style.degraded(to: colorDepth) == activeStyle
            else { return false }
        }
        for x in from..<to { bytes.append(UInt8(truncatingIfNeeded: grid.storage[base + x].code)) }
        return true
    }

    /// Writes one cell (two columns when `isLead`) of `grid` at the cursor.
    mutating func write(_ cell: PackedCell, of grid: CellGrid, isLead: Bool, into bytes: inout [UInt8]) {
        let style = cell.style.degraded(to: colorDepth)
        if style != activeStyle {
            Sequences.appendStyle(style, to: &bytes)
            activeStyle = style
        }
        let columns = isLead ? 2 : 1
        if !isLead, cell.width != 1 {
            // A continuation without its wide cell, or a wide cell without
            // its continuation: never half a character.
            bytes.append(0x20)
        } else if cell.isCluster {
            Self.append(grid.clusters[cell.clusterIndex], columns: columns, to: &bytes)
        } else {
            Self.append(cell.scalar, columns: columns, to: &bytes)
        }
    }

    /// Appends `scalar`'s UTF-8 when it is printable and takes `columns`
    /// columns; otherwise as many spaces (as ``append(_:columns:to:)`` does
    /// for a character of one scalar).
    static func append(_ scalar: Unicode.Scalar, columns: Int, to bytes: inout [UInt8]) {
        let value = scalar.value
        if value < 0x80 {
            if columns == 1, value >= 0x20, value < 0x7F {
                bytes.append(UInt8(truncatingIfNeeded: value))
            } else {
                for _ in 0..<columns { bytes.append(0x20) }
            }
            return
        }
        // A C1 control, or one the terminal would draw in another number
        // of columns.
        guard value >= 0xA0, CharacterWidth.of(scalar: scalar) == columns else {
            for _ in 0..<columns { bytes.append(0x20) }
            return
        }
        UTF8.encode(scalar) { bytes.append($0) }
    }

    /// Appends `character`'s UTF-8 when it is printable and takes
    /// `columns` columns; otherwise as many spaces.
    static func append(_ character: Character, columns: Int, to bytes: inout [UInt8]) {
        if let byte = singleByte(character) {
            if columns == 1, byte >= 0x20, byte < 0x7F {
                bytes.append(byte)
            } else {
                for _ in 0..<columns { bytes.append(0x20) }
            }
            return
        }
        let utf8 = character.utf8
        let count = utf8.count
        guard let first = utf8.first, first >= 0x20, first != 0x7F, count > 1,
              !(first == 0xC2 && utf8[utf8.index(after: utf8.startIndex)] < 0xA0),
              CharacterWidth.of(character) == columns
        else {
            // A control character (C0, DEL, C1), or one the terminal would
            // draw in another number of columns.
            for _ in 0..<columns { bytes.append(0x20) }
            return
        }
        if count <= maximumCharacterBytes {
            bytes.append(contentsOf: utf8)
        } else if let scalar = character.unicodeScalars.first {
            UTF8.encode(scalar) { bytes.append($0) }
        }
    }

    /// The byte of a character that is one ASCII byte; nil for any other
    /// (read from the UTF-8 iterator: no `String` comparison, no copy).
    @inline(__always)
    static func singleByte(_ character: Character) -> UInt8? {
        var iterator = character.utf8.makeIterator()
        guard let first = iterator.next(), first < 0x80, iterator.next() == nil else { return nil }
        return first
    }
}
