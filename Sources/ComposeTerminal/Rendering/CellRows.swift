/// The renderer's fast path: whether a row of the new frame holds the same
/// bytes as the row of the last frame, so that its cells need no comparing
/// one by one. The one unsafe construct of ComposeTerminal (docs/unsafe.md,
/// "ComposeTerminal"): the two arrays' bytes read through
/// `withUnsafeBytes`.
///
/// Comparing 12,000 cells one by one (`Cell.==`: a `String` and two enums
/// each, the cells copied out of the arrays) costs about 115 instructions a
/// cell, a quarter of a whole redraw; reading each cell's meaningful bytes
/// as two 16-byte vectors costs about a dozen.
enum CellRows {
    /// The bytes of a cell that hold its value; the rest of its stride is
    /// padding, which copies of an array do not preserve.
    static let meaningfulBytes = MemoryLayout<Cell>.size
    /// Which of the second 16 bytes of a cell are compared.
    static let secondHalfMask: SIMD16<UInt8> = {
        var mask = SIMD16<UInt8>(repeating: 0)
        for index in 0..<max(0, min(16, meaningfulBytes - 16)) { mask[index] = 0xFF }
        return mask
    }()

    /// Whether the layout is the one the comparison reads: a stride of 32
    /// bytes holding at most 32 meaningful ones and more than 16 (checked
    /// once; otherwise every row is compared cell by cell).
    static let layoutFits = MemoryLayout<Cell>.stride == 32 && meaningfulBytes > 16 && meaningfulBytes <= 32

    /// Whether cells `start ..< start + count` of `a` and of `b` have the
    /// same meaningful bytes (the first `MemoryLayout<Cell>.size` of each
    /// cell's stride).
    ///
    /// Equal bytes mean equal cells: a `Cell` is a `Character` (a `String`:
    /// its 16 bytes are the text itself when small, else a pointer to its
    /// storage and its count, and both arrays keep that storage alive, so
    /// equal bytes are the same text), a `Style` (enums of integer
    /// payloads, stored with their unused payload bytes zeroed) and a
    /// `UInt8`. The converse need not hold (equal text in two storages):
    /// then the row is compared cell by cell, which is only slower. Bytes
    /// are only read, within both arrays' bounds (checked first), while
    /// both arrays are alive; the padding bytes read with the second
    /// vector are masked off before anything depends on them.
    static func identical(_ a: [Cell], _ b: [Cell], from start: Int, count: Int) -> Bool {
        guard count > 0 else { return true }
        guard layoutFits, start >= 0, start + count <= a.count, start + count <= b.count else { return false }
        let mask = secondHalfMask
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                guard let left = a.baseAddress, let right = b.baseAddress else { return false }
                // The stride is 32 (layoutFits): cell i starts at byte 32 * i.
                var cellA = left + start &* 32
                var cellB = right + start &* 32
                let end = left + (start &+ count) &* 32
                var difference = SIMD16<UInt8>(repeating: 0)
                // Two cells a turn, then the odd one.
                while end - cellA >= 64 {
                    let first = cellA.loadUnaligned(as: SIMD16<UInt8>.self) ^ cellB.loadUnaligned(as: SIMD16<UInt8>.self)
                    let second = cellA.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                        ^ cellB.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                    let third = cellA.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self)
                        ^ cellB.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self)
                    let fourth = cellA.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)
                        ^ cellB.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)
                    difference |= first | third | ((second | fourth) & mask)
                    cellA += 64
                    cellB += 64
                }
                if cellA < end {
                    let first = cellA.loadUnaligned(as: SIMD16<UInt8>.self) ^ cellB.loadUnaligned(as: SIMD16<UInt8>.self)
                    let second = cellA.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                        ^ cellB.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
                    difference |= first | (second & mask)
                }
                return difference == SIMD16<UInt8>(repeating: 0)
            }
        }
    }
}
