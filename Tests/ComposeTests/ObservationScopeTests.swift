@_spi(Testing) import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct ObservationScopeTests {
    struct Holder: Component {
        let child = Leaf(name: "child", log: BindLog())
        let tick = Emitter<Int>()
        let witness: Witness
        var observers: Void {
            let witness = witness
            tick += { _ in _ = witness }
            child.value += { _ in _ = witness }
            didAppear += { _ = witness }
        }
    }

    @Test func destroyingATreeReleasesEveryObserverAndWhatItCaptured() {
        weak var weakWitness: Witness?
        var emitters: (Emitter<Int>, Emitter<Int>)?
        do {
            let witness = Witness()
            weakWitness = witness
            let host = TestHost(Holder(witness: witness))
            emitters = (host.root.tick, host.root.child.value)
            #expect(host.root.tick.observerCount == 1)
            host.tree.destroy()
        }
        #expect(weakWitness == nil)
        #expect(emitters?.0.observerCount == 0)
        #expect(emitters?.1.observerCount == 0)
    }

    @Test func observersRegisteredInsideAnObserverBelongToItsScope() {
        struct Outer: Component {
            let inner = Leaf(name: "inner", log: BindLog())
            let start = SignalEmitter()
            let log: BindLog
            var observers: Void {
                start += {
                    inner.value += { log.entries.append("value \($0)") }
                }
            }
        }
        let log = BindLog()
        let host = TestHost(Outer(log: log))
        host.root.start.send()
        host.root.inner.value.send(1)
        #expect(log.entries == ["value 1"])
        let outerNode = host.tree.root
        #expect(outerNode.scopeObserverCount == 2)
        host.tree.destroy()
        #expect(host.root.inner.value.observerCount == 0)
    }

    @Test func destroyingTheEmittersOwnerCancelsObserversFromOtherScopes() {
        let host = TestHost(Root(log: BindLog()))
        let ping = host.root.pair.left.ping
        var count = 0
        // An observer registered outside any scope still dies with the
        // component that owns the emitter.
        ping += { count += 1 }
        ping.send()
        host.node("pair.left")?.destroyForTesting()
        ping.send()
        #expect(count == 1)
        #expect(ping.observerCount == 0)
    }

    @Test func aScopeDropsTokensOfObserversThatEndedOnTheirOwn() {
        /// Each tick registers a one-shot observer on a fresh emitter and
        /// sends it once: the observer ends at once, but the token the scope
        /// keeps holds that emitter, which remembers the witness it sent. A
        /// scope that kept every token would keep every witness alive.
        struct Repeater: Component {
            let tick = Emitter<Witness>()
            var observers: Void {
                tick += { witness in
                    let once = Emitter<Witness>()
                    once !+= { _ in }
                    once.send(witness)
                }
            }
        }
        let host = TestHost(Repeater())
        var witnesses: [Weak<Witness>] = []
        for _ in 0..<1_000 {
            let witness = Witness()
            witnesses.append(Weak(witness))
            host.root.tick.send(witness)
        }
        let alive = witnesses.filter { $0.value != nil }.count
        // The scope compacts when it reaches its threshold (32, then twice
        // what is left): only the tokens since the last compaction remain.
        #expect(alive <= 64, "\(alive) of 1000 witnesses are still alive")
        #expect(host.tree.root.scopeObserverCount == 1)
    }
}

/// A weak reference, to count what is still alive.
private struct Weak<Object: AnyObject> {
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}
