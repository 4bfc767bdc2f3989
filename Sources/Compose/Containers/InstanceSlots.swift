/// The live instances of an ``InstanceComponent`` in creation order, with
/// lookup by id in O(1) and removal in amortised O(1).
///
/// Entries sit in a dense array in the order they were appended (ids only
/// grow, so that is id order too); a dictionary maps each id to its slot.
/// Removing an entry leaves a hole; the holes are compacted away (and the
/// moved entries' slots updated) once they are at least half of the array,
/// so each removal pays for at most two moves. Iteration walks the array
/// and skips the holes: an ``Iterator`` shares the array's storage, so it
/// copies nothing unless the slots change while it is alive (copy on write
/// then keeps it on the entries it started with).
// The read paths are inlinable so that a client specializes them for its
// content type: unspecialized generic lookups and iteration cost hundreds
// of nanoseconds each.
@usableFromInline
struct InstanceSlots<Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline let id: InstanceID
        @usableFromInline let value: Value

        @usableFromInline
        init(id: InstanceID, value: Value) {
            self.id = id
            self.value = value
        }
    }

    @usableFromInline var entries: [Entry?] = []
    @usableFromInline var slotOfID: [InstanceID: Int] = [:]
    private var holes = 0

    @usableFromInline
    init() {}

    /// How many entries are alive.
    @inlinable
    var count: Int { slotOfID.count }

    /// The value stored under `id`, if it is alive.
    @inlinable
    func value(for id: InstanceID) -> Value? {
        guard let slot = slotOfID[id] else { return nil }
        return entries[slot]?.value
    }

    /// Appends `value` under `id`, which must be new.
    mutating func append(_ value: Value, for id: InstanceID) {
        slotOfID[id] = entries.count
        entries.append(Entry(id: id, value: value))
    }

    /// Removes and returns the value stored under `id`, if it is alive.
    mutating func remove(_ id: InstanceID) -> Value? {
        guard let slot = slotOfID.removeValue(forKey: id), let entry = entries[slot] else { return nil }
        entries[slot] = nil
        holes += 1
        // Holes at the end go at once: each is popped once, so this loop is
        // amortised O(1) too, and last-in-first-out use never compacts.
        while let last = entries.last, last == nil {
            entries.removeLast()
            holes -= 1
        }
        if holes >= 32, holes * 2 >= entries.count { compact() }
        return entry.value
    }

    /// Removes every entry.
    mutating func removeAll() {
        entries = []
        slotOfID = [:]
        holes = 0
    }

    /// Moves the live entries together, keeping their order.
    private mutating func compact() {
        var write = 0
        for read in entries.indices {
            guard let entry = entries[read] else { continue }
            if write != read {
                entries[write] = entry
                slotOfID[entry.id] = write
            }
            write += 1
        }
        entries.removeLast(entries.count - write)
        holes = 0
    }

    /// The live entries, oldest first, without copying them.
    @inlinable
    func makeIterator() -> Iterator {
        Iterator(entries: entries)
    }

    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline let entries: [Entry?]
        @usableFromInline var index = 0

        @inlinable
        init(entries: [Entry?]) {
            self.entries = entries
        }

        @inlinable
        mutating func next() -> Entry? {
            while index < entries.count {
                let entry = entries[index]
                index += 1
                if let entry { return entry }
            }
            return nil
        }
    }
}

extension InstanceSlots: Sequence {}
