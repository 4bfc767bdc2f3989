/// The boxes a node owns: most components declare one or two emitters, so
/// the first two are stored inline and only more than that allocate (a
/// binding of many small components would otherwise allocate an array for
/// each of them).
@MainActor
struct BoxList {
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

    /// Calls `body` with each box, in the order they were appended. Main-actor
    /// isolated like its callers, so their closures need no executor check.
    func forEach(_ body: (BoundObject) -> Void) {
        if let first { body(first) }
        if let second { body(second) }
        for box in rest { body(box) }
    }
}
