/// The renderer's fast path: whether a row of the new frame shows the same
/// cells as the row of the last frame, so that its cells need no comparing
/// one by one.
///
/// A grid's cells are packed (``PackedCell``: two integers, no reference),
/// so a row compares as integers, a few instructions a cell, with no
/// unsafe read (before, `Cell`s holding a `Character` were read as raw
/// bytes for this). A cell whose character is a cluster of several
/// scalars names an entry of its own grid's table: it is compared as a
/// `Character`, through its table.
enum CellRows {
    /// Whether cells `start ..< start + count` of `a` and of `b` show the
    /// same thing; `false` for a range outside either grid (unless empty).
    static func identical(_ a: CellGrid, _ b: CellGrid, from start: Int, count: Int) -> Bool {
        guard count > 0 else { return true }
        guard start >= 0, start <= a.storage.count - count, start <= b.storage.count - count else { return false }
        let end = start + count
        let left = a.storage[start..<end], right = b.storage[start..<end]
        // The usual answer first, without a branch a cell: every cell
        // equal and, when either grid has clusters, none a cluster.
        // (A cell as one 16-byte vector: a load, an XOR and an OR each.)
        var difference = SIMD2<UInt64>()
        for index in start..<end {
            difference |= SIMD2(left[index].content, left[index].colors) ^ SIMD2(right[index].content, right[index].colors)
        }
        if difference == SIMD2() {
            if a.clusters.isEmpty && b.clusters.isEmpty { return true }
            var codes: UInt64 = 0
            for cell in left { codes |= cell.content }
            if codes & UInt64(PackedCell.clusterFlag) == 0 { return true }
        }
        for (x, y) in zip(left, right) {
            if x == y {
                if x.isCluster, a.clusters[x.clusterIndex] != b.clusters[y.clusterIndex] { return false }
            } else if !x.isCluster && !y.isCluster || !CellGrid.same(x, in: a, y, in: b) {
                return false
            }
        }
        return true
    }
}
