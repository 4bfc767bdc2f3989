import Compose
import ComposeTesting
import Testing

/// A leaf that wires nothing: its parent observes its emitter.
private struct Button: PassiveComponent {
    let tapped = SignalEmitter()
}

/// A passive component that grew observers of its own: its declaration
/// replaces the empty default.
private struct Counter: PassiveComponent {
    let increment = SignalEmitter()
    let count = Emitter<Int>()
}

extension Counter {
    var observers: Void {
        increment += { count.send((count.lastValue ?? 0) + 1) }
    }
}

private struct Panel: Component {
    let button = Button()
    let counter = Counter()
    let taps = Emitter<Int>()
}

extension Panel {
    var observers: Void {
        button.tapped += { taps.send((taps.lastValue ?? 0) + 1) }
    }
}

@MainActor
@Suite struct PassiveComponentTests {
    @Test func aPassiveComponentIsBoundAndObservedByItsParent() throws {
        let host = TestHost(Panel())
        let button = try #require(host.node("panel.button"))
        #expect(button.componentType is Button.Type)
        #expect(button.scopeObserverCount == 0)
        #expect(host.node("panel.counter")?.scopeObserverCount == 1)
        host.root.button.tapped.send()
        host.root.button.tapped.send()
        #expect(host.root.taps.lastValue == 2)
    }

    @Test func itsOwnObserversReplaceTheEmptyDefault() {
        let host = TestHost(Panel())
        host.root.counter.increment.send()
        host.root.counter.increment.send()
        host.root.counter.increment.send()
        #expect(host.root.counter.count.lastValue == 3)
    }
}
