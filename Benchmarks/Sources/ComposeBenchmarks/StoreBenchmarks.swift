import Compose
import OpenCombine

// A store write seen by K observers: a Compose `@Store` against a plain class
// whose `didSet` calls an array of closures (the floor: what a store is,
// without coalescing or equality) and OpenCombine's `CurrentValueSubject`
// (what a user would otherwise pick). Every observer, in every variant, is
// made by ``observer(_:)``: `{ state in sink.sum &+= state.count }`.

/// The state of every variant: the issue's `Counter`.
struct BenchCounter: Equatable {
    var count = 0
    var name = ""
}

/// The floor: a property whose `didSet` calls the observers.
final class DidSetCounter {
    var observers = ContiguousArray<(BenchCounter) -> Void>()
    var state = BenchCounter() {
        didSet {
            // Locals: one exclusivity check each, not one per observer.
            let observers = observers
            let state = state
            for index in observers.indices { observers[index](state) }
        }
    }
}

/// A component with a store, bound in a tree like an app's.
struct StoreHolder: Component {
    @Store var state = BenchCounter()
    let increment = SignalEmitter()
}

extension StoreHolder {
    var observers: Void {
        increment += { state.count += 1 }
    }
}

/// Nanoseconds per write of each contender.
struct StoreResult {
    let compose: Double
    let floor: Double
    let openCombine: Double
}

enum StoreBenchmarks {
    /// The observer of every variant, made outside the main actor (see
    /// ``EmitterBenchmarks/observer(_:)``).
    nonisolated static func observer(_ sink: Sink) -> @Sendable (BenchCounter) -> Void {
        { state in sink.sum &+= state.count }
    }

    /// `state.count += 1` outside any dispatch (each write sends at once),
    /// observed by `observers` observers.
    @MainActor
    static func write(observedBy observers: Int, sink: Sink) -> StoreResult {
        let tree = ComponentTree(StoreHolder())
        let holder = tree.root.value(as: StoreHolder.self)!
        for _ in 0..<observers {
            holder.$state += observer(sink)
        }

        let plain = makeDidSetCounter(observers: observers, sink: sink)

        let subject = CurrentValueSubject<BenchCounter, Never>(BenchCounter())
        var cancellables: [AnyCancellable] = []
        for _ in 0..<observers {
            cancellables.append(subject.dropFirst().sink(receiveValue: observer(sink)))
        }

        let perWrite = Harness.measure([
            Variant("didSet + closure array") { writes in
                timed {
                    for _ in 0..<writes { plain.state.count += 1 }
                }
            },
            Variant("Compose @Store") { writes in
                timed {
                    for _ in 0..<writes { holder.state.count += 1 }
                }
            },
            Variant("OpenCombine CurrentValueSubject") { writes in
                timed {
                    for _ in 0..<writes { subject.value.count += 1 }
                }
            },
        ])
        withExtendedLifetime((tree, cancellables)) {}
        return StoreResult(compose: perWrite[1], floor: perWrite[0], openCombine: perWrite[2])
    }

    /// A write made in an observer (the store sends once, when that
    /// dispatch ends), observed by `observers` observers. Every contender
    /// is written by an observer of a Compose signal of its own, so the
    /// rows compare the writes, not the signals.
    @MainActor
    static func writeInObserver(observedBy observers: Int, sink: Sink) -> StoreResult {
        let tree = ComponentTree(StoreHolder())
        let holder = tree.root.value(as: StoreHolder.self)!
        for _ in 0..<observers {
            holder.$state += observer(sink)
        }

        let plain = makeDidSetCounter(observers: observers, sink: sink)
        let writePlain = SignalEmitter()
        writePlain += { plain.state.count += 1 }

        let subject = CurrentValueSubject<BenchCounter, Never>(BenchCounter())
        var cancellables: [AnyCancellable] = []
        for _ in 0..<observers {
            cancellables.append(subject.dropFirst().sink(receiveValue: observer(sink)))
        }
        let writeSubject = SignalEmitter()
        writeSubject += { subject.value.count += 1 }

        let perWrite = Harness.measure([
            Variant("signal + didSet") { writes in
                timed {
                    for _ in 0..<writes { writePlain.send() }
                }
            },
            Variant("signal + @Store") { writes in
                timed {
                    for _ in 0..<writes { holder.increment.send() }
                }
            },
            Variant("signal + CurrentValueSubject") { writes in
                timed {
                    for _ in 0..<writes { writeSubject.send() }
                }
            },
        ])
        withExtendedLifetime((tree, cancellables)) {}
        return StoreResult(compose: perWrite[1], floor: perWrite[0], openCombine: perWrite[2])
    }

    /// Built out of line so that the optimizer cannot see which closures
    /// the floor calls, as it cannot for a store.
    @inline(never)
    static func makeDidSetCounter(observers: Int, sink: Sink) -> DidSetCounter {
        let plain = DidSetCounter()
        for _ in 0..<observers { plain.observers.append(observer(sink)) }
        return plain
    }
}
