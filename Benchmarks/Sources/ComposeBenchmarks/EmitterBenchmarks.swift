import Compose
import OpenCombine

// Sending and subscribing: a Compose `Emitter<Int>` against a plain array of
// closures (the floor) and OpenCombine's `PassthroughSubject` (what a user
// would otherwise pick). Every observer, in every variant, is made by the
// same function, ``observer(_:)``: `{ value in sink.sum &+= value }`.

/// Nanoseconds per operation of each contender.
struct EmitterResult {
    let compose: Double
    let closures: Double
    let openCombine: Double
}

enum EmitterBenchmarks {
    /// The observer of every variant. Made outside the main actor so that it
    /// is the same plain closure everywhere: a closure written inline in
    /// main-actor code and handed to a Swift 5 module (OpenCombine) would
    /// get a dynamic main-actor check on every call that the others lack.
    nonisolated static func observer(_ sink: Sink) -> @Sendable (Int) -> Void {
        { value in sink.sum &+= value }
    }

    /// Sending one `Int` to `observers` observers. The result is per observer
    /// call (time per send divided by `observers`).
    @MainActor
    static func send(toObservers observers: Int, sink: Sink) -> EmitterResult {
        let emitter = Emitter<Int>()
        for _ in 0..<observers {
            emitter += observer(sink)
        }

        let closures = makeClosureArray(count: observers, sink: sink)

        let subject = PassthroughSubject<Int, Never>()
        // The cancellables must stay alive, or the sinks are cancelled.
        var cancellables: [AnyCancellable] = []
        for _ in 0..<observers {
            cancellables.append(subject.sink(receiveValue: observer(sink)))
        }

        let perSend = Harness.measure([
            Variant("closure array") { sends in
                timed {
                    for value in 0..<sends {
                        for index in closures.indices { closures[index](value) }
                    }
                }
            },
            Variant("Compose") { sends in
                timed {
                    for value in 0..<sends { emitter.send(value) }
                }
            },
            Variant("OpenCombine") { sends in
                timed {
                    for value in 0..<sends { subject.send(value) }
                }
            },
        ])
        withExtendedLifetime(cancellables) {}
        let calls = Double(observers)
        return EmitterResult(compose: perSend[1] / calls, closures: perSend[0] / calls, openCombine: perSend[2] / calls)
    }

    /// Built out of line so that the optimizer cannot see which closures the
    /// array holds, as it cannot for an emitter.
    @inline(never)
    static func makeClosureArray(count: Int, sink: Sink) -> ContiguousArray<(Int) -> Void> {
        var closures = ContiguousArray<(Int) -> Void>()
        for _ in 0..<count {
            closures.append(observer(sink))
        }
        return closures
    }

    /// Subscribing one observer and cancelling it again, on an emitter (or
    /// subject) that already has `existing` observers.
    @MainActor
    static func subscribeAndCancel(existing: Int, sink: Sink) -> EmitterResult {
        let emitter = Emitter<Int>()
        for _ in 0..<existing {
            emitter += observer(sink)
        }

        var closures = makeClosureArray(count: existing, sink: sink)

        let subject = PassthroughSubject<Int, Never>()
        var cancellables: [AnyCancellable] = []
        for _ in 0..<existing {
            cancellables.append(subject.sink(receiveValue: observer(sink)))
        }

        let perOperation = Harness.measure([
            // The floor: append a closure to the array and remove it.
            Variant("closure array") { operations in
                timed {
                    for _ in 0..<operations {
                        closures.append(observer(sink))
                        closures.removeLast()
                    }
                }
            },
            Variant("Compose") { operations in
                timed {
                    for _ in 0..<operations {
                        let subscription = emitter += observer(sink)
                        subscription.cancel()
                    }
                }
            },
            Variant("OpenCombine") { operations in
                timed {
                    for _ in 0..<operations {
                        let cancellable = subject.sink(receiveValue: observer(sink))
                        cancellable.cancel()
                    }
                }
            },
        ])
        // Check that every variant left exactly `existing` observers, then
        // that they still work.
        precondition(emitter.observerCount == existing && closures.count == existing)
        emitter.send(1)
        subject.send(1)
        for closure in closures { closure(1) }
        withExtendedLifetime(cancellables) {}
        return EmitterResult(compose: perOperation[1], closures: perOperation[0], openCombine: perOperation[2])
    }
}
