import Compose
import ComposeTesting
import Testing

/// A component whose emitter it owns.
private struct CombinatorSource: Component {
    let numbers = Emitter<Int>()
    var observers: Void { None }
}

/// Emitters no component owns (binding never looks inside user classes).
@MainActor
private final class CombinatorFeed {
    let numbers = Emitter<Int>()
    var received: [Int] = []
}

/// Observes an unowned emitter through `map` from its `observers`.
private struct CombinatorListener: Component {
    let feed: CombinatorFeed

    var observers: Void {
        feed.numbers.map { $0 * 10 } += { feed.received.append($0) }
    }
}

/// Observes a derived emitter of its child's emitter: allowed.
private struct CombinatorParent: Component {
    let source = CombinatorSource()
    let feed: CombinatorFeed

    var observers: Void {
        source.numbers.filter { $0 > 1 } += { feed.received.append($0) }
    }
}

/// A child handed its parent's emitter, observing it through `map`: the
/// ancestor-observation mistake.
private struct CombinatorMisusingChild: Component {
    let parentNumbers: Emitter<Int>
    let feed: CombinatorFeed

    var observers: Void {
        parentNumbers.map { $0 } += { feed.received.append($0) }
    }
}

private struct CombinatorMisusingParent: Component {
    let numbers: Emitter<Int>
    let child: CombinatorMisusingChild

    init(feed: CombinatorFeed) {
        let numbers = Emitter<Int>()
        self.numbers = numbers
        child = CombinatorMisusingChild(parentNumbers: numbers, feed: feed)
    }

    var observers: Void { None }
}

@MainActor
@Suite struct CombinatorScopeTests {
    @Test func derivedEmitterEndsWhenTheUpstreamOwnerIsDestroyed() {
        let source = CombinatorSource()
        let tree = ComponentTree(source)
        let doubled = source.numbers.map { $0 * 2 }
        let debounced = doubled.debounce(for: .seconds(1), scheduler: VirtualScheduler())
        let seen = Recorder(doubled)
        debounced += { _ in }
        source.numbers.send(1)
        #expect(seen.values == [2])
        tree.destroy()
        #expect(source.numbers.observerCount == 0)
        #expect(doubled.observerCount == 0)
        #expect(debounced.observerCount == 0)
        source.numbers.send(2)
        #expect(seen.values == [2])
    }

    @Test func derivedEmitterCreatedInObserversIsCancelledWithThatComponent() {
        let feed = CombinatorFeed()
        let tree = ComponentTree(CombinatorListener(feed: feed))
        feed.numbers.send(1)
        #expect(feed.received == [10])
        #expect(feed.numbers.observerCount == 1)
        tree.destroy()
        #expect(feed.numbers.observerCount == 0)
        feed.numbers.send(2)
        #expect(feed.received == [10])
    }

    @Test func componentMayObserveADerivedEmitterOfItsChild() {
        let feed = CombinatorFeed()
        let parent = CombinatorParent(feed: feed)
        let tree = ComponentTree(parent)
        var diagnostics: [Diagnostic] = []
        tree.diagnostics += { diagnostics.append($0) }
        parent.source.numbers.send(1)
        parent.source.numbers.send(2)
        #expect(feed.received == [2])
        #expect(diagnostics.isEmpty)
    }

    @Test func observingAnAncestorsEmitterThroughMapIsReported() {
        let feed = CombinatorFeed()
        let parent = CombinatorMisusingParent(feed: feed)
        let host = TestHost(parent)
        // Reported while binding; `++=` replays the last diagnostic.
        var last: Diagnostic?
        host.tree.diagnostics ++= { last = $0 }
        #expect(last?.code == .ancestorObservation)
        #expect(last?.path == "combinatorMisusingParent.child")
        parent.numbers.send(1)
        #expect(feed.received.isEmpty)
        #expect(parent.numbers.observerCount == 0)
    }
}
