import Compose

// InstanceComponent with 10,000 live instances: finding one by id, removing
// the oldest and adding a new one, and walking all of them, against a plain
// `[InstanceID: Item]` dictionary doing the same. Removing and adding binds
// and destroys a component node, which a dictionary does not, so that row is
// also measured with 100 instances: its cost should not follow the count.

/// One instance: a value to read and an emitter, like a small connection.
struct PoolItem: Component {
    let value: Int
    let ping = Emitter<Int>()
    var observers: Void { None }
}

/// The root: the container under test.
struct Pool: Component {
    let items = InstanceComponent<PoolItem>()
    var observers: Void { None }
}

struct InstanceResult {
    let instances: Int
    /// Nanoseconds per lookup by id.
    let lookup: Double
    let lookupDictionary: Double
    /// Nanoseconds per remove (the oldest) + add.
    let removeAdd: Double
    let removeAddDictionary: Double
    /// The same with `smallInstances` instances.
    let smallInstances: Int
    let removeAddSmall: Double
    /// Nanoseconds per instance visited by a full iteration.
    let iterate: Double
    let iterateDictionary: Double
}

enum InstanceBenchmarks {
    /// A bound, active pool of `count` instances and a dictionary holding
    /// the same ids and values.
    @MainActor
    final class Subject {
        let tree: ComponentTree
        let items: InstanceComponent<PoolItem>
        var dictionary: [InstanceID: PoolItem] = [:]
        /// The live ids, oldest first, as a ring: `head` is the oldest.
        var ring: [InstanceID]
        var head = 0
        /// The ids in a scattered order, for lookups.
        let probes: [InstanceID]
        var nextValue = 0
        /// The dictionary's own ring of ids and its next id.
        var dictionaryRing: [InstanceID]
        var dictionaryHead = 0
        var nextDictionaryID: UInt64

        init(count: Int) {
            let pool = Pool()
            tree = ComponentTree(pool)
            tree.activate()
            items = pool.items
            var ids: [InstanceID] = []
            for value in 0..<count {
                let id = pool.items.add { PoolItem(value: value) }!
                ids.append(id)
                dictionary[id] = PoolItem(value: value)
            }
            ring = ids
            nextValue = count
            dictionaryRing = ids
            nextDictionaryID = ids.last!.rawValue + 1
            // A stride coprime with the count visits every id once per lap,
            // far from the previous one.
            probes = (0..<count).map { ids[($0 &* 7_919) % count] }
            precondition(items.count == count && tree.liveNodeCount == count + 2)
        }

        func lookup(_ operations: Int) -> Duration {
            let items = items, probes = probes, count = probes.count
            return timed {
                var sum = 0
                for index in 0..<operations {
                    sum &+= items[probes[index % count]]!.value
                }
                sinkSum &+= sum
            }
        }

        func lookupDictionary(_ operations: Int) -> Duration {
            let dictionary = dictionary, probes = probes, count = probes.count
            return timed {
                var sum = 0
                for index in 0..<operations {
                    sum &+= dictionary[probes[index % count]]!.value
                }
                sinkSum &+= sum
            }
        }

        /// Removes the oldest instance and adds a new one, `operations`
        /// times. The lookups' probes go stale; `lookup` runs before.
        func removeAdd(_ operations: Int) -> Duration {
            let items = items, count = ring.count
            return timed {
                for _ in 0..<operations {
                    items.remove(ring[head])
                    let value = nextValue
                    ring[head] = items.add { PoolItem(value: value) }!
                    nextValue &+= 1
                    head = head + 1 == count ? 0 : head + 1
                }
            }
        }

        func removeAddDictionary(_ operations: Int) -> Duration {
            let count = dictionaryRing.count
            return timed {
                for _ in 0..<operations {
                    dictionary.removeValue(forKey: dictionaryRing[dictionaryHead])
                    let id = InstanceID(rawValue: nextDictionaryID)
                    nextDictionaryID &+= 1
                    dictionary[id] = PoolItem(value: nextValue)
                    dictionaryRing[dictionaryHead] = id
                    nextValue &+= 1
                    dictionaryHead = dictionaryHead + 1 == count ? 0 : dictionaryHead + 1
                }
            }
        }

        /// `operations` full walks; per walk.
        func iterate(_ operations: Int) -> Duration {
            let items = items
            return timed {
                var sum = 0
                for _ in 0..<operations {
                    for (_, item) in items { sum &+= item.value }
                }
                sinkSum &+= sum
            }
        }

        func iterateDictionary(_ operations: Int) -> Duration {
            let dictionary = dictionary
            return timed {
                var sum = 0
                for _ in 0..<operations {
                    for (_, item) in dictionary { sum &+= item.value }
                }
                sinkSum &+= sum
            }
        }

        var sinkSum = 0
    }

    @MainActor
    static func run(instances: Int = 10_000, smallInstances: Int = 100, sink: Sink) -> InstanceResult {
        let large = Subject(count: instances)
        let small = Subject(count: smallInstances)
        defer {
            large.tree.destroy()
            small.tree.destroy()
            sink.sum &+= large.sinkSum &+ small.sinkSum
        }
        let lookup = Harness.measure([
            Variant("lookup, InstanceComponent", run: large.lookup),
            Variant("lookup, dictionary", run: large.lookupDictionary),
        ])
        let iterate = Harness.measure([
            Variant("iterate, InstanceComponent", run: large.iterate),
            Variant("iterate, dictionary", run: large.iterateDictionary),
        ]).map { $0 / Double(instances) }
        let removeAdd = Harness.measure([
            Variant("remove + add, InstanceComponent", run: large.removeAdd),
            Variant("remove + add, dictionary", run: large.removeAddDictionary),
            Variant("remove + add, small InstanceComponent", run: small.removeAdd),
        ])
        precondition(large.items.count == instances && large.tree.liveNodeCount == instances + 2)
        return InstanceResult(
            instances: instances,
            lookup: lookup[0], lookupDictionary: lookup[1],
            removeAdd: removeAdd[0], removeAddDictionary: removeAdd[1],
            smallInstances: smallInstances, removeAddSmall: removeAdd[2],
            iterate: iterate[0], iterateDictionary: iterate[1]
        )
    }
}
