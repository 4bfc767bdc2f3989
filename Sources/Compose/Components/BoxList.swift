/// The boxes a node owns: most components declare one or two emitters, so
/// the first two are stored inline and only more than that allocate (a
/// binding of many small components would otherwise allocate an array for
/// each of them).
struct BoxList: Sequence {
    private var first: BoundObject?
    private var second: BoundObject?
    private var rest: [BoundObject] = []

    mutating func append(_ box: BoundObject) {
        if first == nil {
            first = box
        } else if second == nil {
            second = box
        } else {
            rest.append(box)
        }
    }

    func makeIterator() -> IndexingIterator<[BoundObject]> {
        var all: [BoundObject] = []
        all.reserveCapacity(2 + rest.count)
        if let first { all.append(first) }
        if let second { all.append(second) }
        all.append(contentsOf: rest)
        return all.makeIterator()
    }

    /// Calls `body` with each box, without building an array.
    func forEach(_ body: (BoundObject) -> Void) {
        if let first { body(first) }
        if let second { body(second) }
        for box in rest { body(box) }
    }
}
