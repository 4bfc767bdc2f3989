@_spi(Testing) import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct ReentrancyTests {
    @Test func anObserverMaySendToTheSameEmitter() {
        let emitter = Emitter<Int>()
        var log: [String] = []
        emitter += { value in
            log.append("a\(value)")
            if value == 1 { emitter.send(2) }
        }
        emitter += { log.append("b\($0)") }
        emitter.send(1)
        #expect(log == ["a1", "a2", "b2", "b1"])
        #expect(emitter.lastValue == 2)
    }

    @Test func anObserverThatCancelsItselfIsNotCalledAgain() {
        let emitter = Emitter<Int>()
        var calls = 0
        var token: Subscription?
        token = emitter += { value in
            calls += 1
            token?.cancel()
            emitter.send(value + 1)
        }
        emitter.send(1)
        emitter.send(10)
        #expect(calls == 1)
        #expect(emitter.observerCount == 0)
    }

    @Test func anObserverCancelledDuringADispatchIsNotCalledAfterwards() {
        let emitter = Emitter<Int>()
        var log: [String] = []
        var later: Subscription?
        emitter += { _ in
            log.append("first")
            later?.cancel()
        }
        later = emitter += { _ in log.append("later") }
        emitter += { _ in log.append("third") }
        emitter.send(0)
        emitter.send(0)
        #expect(log == ["first", "third", "first", "third"])
    }

    @Test func anEarlierObserverCancelledDuringADispatchIsReleasedAfterIt() {
        weak var weakWitness: Witness?
        let emitter = Emitter<Int>()
        var earlier: Subscription?
        do {
            let witness = Witness()
            weakWitness = witness
            earlier = emitter += { _ in _ = witness }
        }
        emitter += { _ in
            earlier?.cancel()
            // Still retained while the dispatch runs: it is marked, not freed.
            #expect(weakWitness != nil)
        }
        emitter.send(0)
        #expect(weakWitness == nil)
        #expect(emitter.observerCount == 1)
    }

    @Test func observersAddedDuringADispatchAreCalledFromTheNextOne() {
        let emitter = Emitter<Int>()
        var log: [String] = []
        var added = false
        emitter += { value in
            log.append("outer\(value)")
            if !added {
                added = true
                emitter += { log.append("new\($0)") }
            }
        }
        emitter.send(1)
        emitter.send(2)
        #expect(log == ["outer1", "outer2", "new2"])
    }

    @Test func manyObserversAddedDuringADispatchDoNotDisturbIt() {
        let emitter = Emitter<Int>()
        var calls = 0
        emitter += { _ in
            calls += 1
            for _ in 0..<100 { emitter += { _ in calls += 1 } }
        }
        emitter += { _ in calls += 1 }
        emitter.send(0)
        #expect(calls == 2)
        #expect(emitter.observerCount == 102)
    }

    @Test func aNestedSendCallsObserversAddedEarlierInTheOuterDispatch() {
        let emitter = Emitter<Int>()
        var log: [String] = []
        emitter += { value in
            log.append("outer\(value)")
            if value == 1 {
                emitter += { log.append("new\($0)") }
                emitter.send(2)
            }
        }
        emitter += { log.append("last\($0)") }
        emitter.send(1)
        // The nested send (2) was made after `new` subscribed, so it calls
        // it; the outer send (1) began before, so it does not.
        #expect(log == ["outer1", "outer2", "last2", "new2", "last1"])
        log = []
        emitter.send(3)
        #expect(log == ["outer3", "last3", "new3"])
        #expect(emitter.observerCount == 3)
    }

    @Test func anObserverAddedAndCancelledInOneDispatchIsNeverCalled() {
        weak var weakWitness: Witness?
        let emitter = Emitter<Int>()
        var log: [String] = []
        emitter += { value in
            log.append("outer\(value)")
            guard value == 1 else { return }
            let witness = Witness()
            weakWitness = witness
            let added = emitter += { _ in
                _ = witness
                log.append("added")
            }
            added.cancel()
            emitter.send(2)
        }
        emitter.send(1)
        emitter.send(3)
        #expect(log == ["outer1", "outer2", "outer3"])
        #expect(emitter.observerCount == 1)
        #expect(weakWitness == nil)
    }

    @Test func aOnceObserverAddedDuringADispatchRunsOnceInANestedSend() {
        let emitter = Emitter<Int>()
        var log: [Int] = []
        emitter += { value in
            if value == 1 {
                emitter !+= { log.append($0) }
                emitter.send(2)
                emitter.send(3)
            }
        }
        emitter.send(1)
        emitter.send(4)
        #expect(log == [2])
        #expect(emitter.observerCount == 1)
    }

    /// Lets a test give a component an action to run from an observer.
    final class Hook {
        var action: @MainActor () -> Void = {}
    }

    @Test func destroyingTheOwningComponentDuringADispatchStopsTheRest() {
        struct Owner: Component {
            let tick = SignalEmitter()
            let log: EventLog
            let hook: Hook
            var observers: Void {
                tick += {
                    log.record("first")
                    hook.action()
                }
                tick += { log.record("second") }
            }
        }
        let log = EventLog()
        let hook = Hook()
        let host = TestHost(Owner(log: log, hook: hook))
        hook.action = { host.tree.destroy() }
        let tick = host.root.tick
        tick.send()
        #expect(log.events == ["first"])
        #expect(tick.observerCount == 0)
        tick.send()
        #expect(log.events == ["first"])
    }

    @Test func destroyingTheObserversScopeDuringADispatchCancelsItsLaterObservers() {
        /// Not a framework type: the component does not own this emitter.
        final class Source {
            let emitter = SignalEmitter()
        }
        struct Listener: Component {
            let source: Source
            let log: EventLog
            var observers: Void {
                source.emitter += { log.record("listener one") }
                source.emitter += { log.record("listener two") }
            }
        }
        struct Holder: Component {
            let listener: Listener
            var observers: Void { None }
        }
        let log = EventLog()
        let source = Source()
        // Registered first, so it runs before the listener's observers.
        var listenerNode: ComponentNode?
        source.emitter += {
            log.record("outside")
            listenerNode?.destroyForTesting()
        }
        let host = TestHost(Holder(listener: Listener(source: source, log: log)))
        listenerNode = host.node("listener")
        source.emitter.send()
        #expect(log.events == ["outside"])
        #expect(source.emitter.observerCount == 1)
    }
}
