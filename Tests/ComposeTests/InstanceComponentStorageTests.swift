import Compose
import ComposeTesting
import Testing

/// An instance that keeps an object alive, to see when it is released.
struct Tracked: Component {
    let witness: Witness
    let said = Emitter<String>()
    var observers: Void { None }
}

struct TrackedPool: Component {
    let tracked = InstanceComponent<Tracked>()
    var observers: Void { None }
}

struct PoolHolder: Component {
    let pool = DynamicComponent<TrackedPool>()
    var observers: Void { None }
}

/// The storage behind InstanceComponent (O(1) lookup, holes compacted
/// lazily): order, lookup, node paths and release stay right through any
/// sequence of adds and removes.
@MainActor
@Suite struct InstanceComponentStorageTests {
    /// Random adds and removes (mostly from the middle, so holes pile up
    /// and get compacted) against a plain array of the live ids.
    @Test(arguments: [1 as UInt64, 2, 3])
    func randomAddsAndRemovesKeepCreationOrderAndLookup(seed: UInt64) throws {
        let host = TestHost(Server(log: EventLog()))
        let sessions = host.root.sessions
        var generator = SplitMix(seed: seed)
        var model: [InstanceID] = []
        var removed: [InstanceID] = []
        for step in 0..<3_000 {
            if model.isEmpty || generator.next() % 5 < 2 {
                model.append(try #require(sessions.add { Session() }))
            } else {
                let id = model.remove(at: Int(generator.next() % UInt64(model.count)))
                sessions.remove(id)
                removed.append(id)
            }
            if step % 97 == 0 {
                #expect(sessions.ids == model)
                #expect(sessions.map(\.id) == model)
                #expect(sessions.count == model.count)
                #expect(host.node("sessions")?.children.map(\.label) == model.map(\.description))
            }
        }
        #expect(sessions.ids == model)
        for id in model {
            #expect(sessions[id] != nil)
            #expect(host.node("sessions.\(id)")?.isActive == true)
            #expect(host.node("sessions.\(id)")?.path == "server.sessions.\(id)")
        }
        for id in removed.suffix(100) {
            #expect(sessions[id] == nil)
            #expect(host.node("sessions.\(id)") == nil)
        }
        // Labels that are not ids of live instances lead nowhere.
        #expect(host.node("sessions.0") == nil)
        #expect(host.node("sessions.x") == nil)
        #expect(host.node("sessions.0\(model[0])") == nil)
        #expect(host.diagnostics.isEmpty)
    }

    @Test func removingEveryInstanceWhileIteratingVisitsEachOnce() throws {
        let log = EventLog()
        let host = TestHost(Server(log: log))
        let ids = try (0..<100).map { _ in try #require(host.root.sessions.add { Session() }) }
        var visited: [InstanceID] = []
        for (id, _) in host.root.sessions {
            visited.append(id)
            host.root.sessions.remove(id)
            if id == ids[10] { host.root.sessions.add { Session() } }
        }
        #expect(visited == ids)
        #expect(host.root.sessions.count == 1)
        #expect(host.diagnostics.isEmpty)
    }

    @Test func removedInstancesAreReleasedAtOnce() throws {
        let probe = WeakProbe()
        let host = TestHost(TrackedPool())
        var ids: [InstanceID] = []
        for _ in 0..<50 {
            let witness = Witness()
            probe.track(witness)
            ids.append(try #require(host.root.tracked.add { Tracked(witness: witness) }))
        }
        for id in ids.prefix(40) { host.root.tracked.remove(id) }
        #expect(probe.liveCount == 10)
        #expect(host.root.tracked.ids == Array(ids.suffix(10)))
    }

    @Test func destroyingTheContainerDestroysAndReleasesItsInstances() throws {
        let probe = WeakProbe()
        let host = TestHost(PoolHolder())
        host.root.pool.create { TrackedPool() }
        let pool = try #require(host.root.pool.component)
        var saids: [Emitter<String>] = []
        for _ in 0..<5 {
            let witness = Witness()
            probe.track(witness)
            let id = try #require(pool.tracked.add { Tracked(witness: witness) })
            saids.append(try #require(pool.tracked[id]?.said))
            saids.last! += { _ in }
        }
        var nodes = host.node("pool.component.tracked")?.children ?? []
        #expect(nodes.count == 5)
        host.root.pool.destroy()
        #expect(nodes.allSatisfy { $0.isDestroyed })
        nodes = []
        #expect(saids.allSatisfy { $0.observerCount == 0 })
        #expect(pool.tracked.count == 0)
        #expect(probe.liveCount == 0)
        #expect(host.diagnostics.isEmpty)
    }
}

/// A small deterministic generator, so that a failure can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
