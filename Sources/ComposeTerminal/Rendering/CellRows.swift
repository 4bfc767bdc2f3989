/// The renderer's fast path: whether a row of the new frame shows the same
/// cells as the row of the last frame, so that its cells need no comparing
/// one by one.
///
/// A grid's cells are packed (``PackedCell``: two integers, no reference),
/// so a row compares as integers, a few instructions a cell, with no
/// unsafe read (before, `Cell`s holding a `Character` were read as raw
/// bytes for this). A cell whose character is a cluster of several
/// scalars names an entry of its own grid's table: two such cells are
/// compared through their tables.
enum CellRows {
    /// Whether cells `start ..< start + count` of `a` and of `b` show the
    /// same thing; `false` for a range outside either grid (unless empty).
    static func identical(_ a: CellGrid, _ b: CellGrid, from start: Int, count: Int) -> Bool {
        guard count > 0 else { return true }
        guard start >= 0, start <= a.storage.count - count, start <= b.storage.count - count else { return false }
        let end = start + count
        let left = a.storage[start..<end], right = b.storage[start..<end]
        // The usual answer first, without a branch a cell: every cell
        // equal and none a cluster.
        var difference: UInt64 = 0, codes: UInt64 = 0
        for (x, y) in zip(left, right) {
            difference |= (x.content ^ y.content) | (x.colors ^ y.colors)
            codes |= x.content | y.content
        }
        if difference == 0, codes & UInt64(PackedCell.clusterFlag) == 0 { return true }
        for (x, y) in zip(left, right) {
            if x == y {
                if x.isCluster, a.clusters[x.clusterIndex] != b.clusters[y.clusterIndex] { return false }
            } else if !x.isCluster || !y.isCluster || !CellGrid.same(x, in: a, y, in: b) {
                return false
            }
        }
        return true
    }
}
