import ComposeApp
import ComposeTesting
import PropertyBased
import Testing

/// Random dispatches of random writes against a reference model: the store
/// always equals the model, and sends exactly once per dispatch that
/// changed it (once per changing write outside any dispatch), the state at
/// the end of that dispatch.
///
/// PropertyBased seeds each run and prints the seed of a failing case
/// (`.fixedSeed("…")` on the test replays it).
@MainActor
@Suite struct StorePropertyTests {
    struct Pair: Equatable {
        var a = 0
        var b = 0

        /// The reference semantics of one write.
        mutating func apply(_ write: Write) {
            switch write.operation {
            case 0: a = write.value
            case 1: b = write.value
            default: a += write.value
            }
        }
    }

    /// Set `a`, set `b` or add to `a` (values 0...2, so many writes leave
    /// the state equal); `nested` writes go through a nested dispatch.
    struct Write: Sendable, CustomStringConvertible {
        var operation: Int
        var value: Int
        var nested: Bool
        var description: String {
            ["a=", "b=", "a+="][operation] + "\(value)" + (nested ? " (nested)" : "")
        }
    }

    /// How a batch of writes is made: in one observer (0, 1), or by the
    /// test's own code, outside any dispatch (2).
    struct Batch: Sendable, CustomStringConvertible {
        var outside: Bool
        var writes: [Write]
        var description: String { (outside ? "outside " : "dispatch ") + "\(writes)" }
    }

    struct PairComponent: Component {
        @Store var pair = Pair()
        let apply = Emitter<[Write]>()
        let applyNested = Emitter<Write>()
    }

    static let write = zip(Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.bool(0.3))
        .map { operation, value, nested in Write(operation: operation, value: value, nested: nested) }
    static let batches = zip(Gen.int(in: 0...2), write.array(of: 0...6))
        .map { mode, writes in Batch(outside: mode == 2, writes: writes) }
        .array(of: 0...15)

    @Test func randomWritesFollowTheModelWithOneSendPerChangingDispatch() async {
        await propertyCheck(count: 300, input: Self.batches) { batches in
            let app = TestApp(root: PairComponent())
            let component = app.root(as: PairComponent.self)!
            var sent: [Pair] = []
            component.$pair += { sent.append($0) }
            var model = Pair()
            var expected: [Pair] = []
            for batch in batches {
                if batch.outside {
                    for write in batch.writes {
                        let before = model
                        model.apply(write)
                        component.pair.apply(write)
                        if model != before { expected.append(model) }
                    }
                } else {
                    let before = model
                    for write in batch.writes { model.apply(write) }
                    app.run { component.apply.send(batch.writes) }
                    if model != before { expected.append(model) }
                }
                #expect(component.pair == model, "after \(batch)")
            }
            #expect(sent == expected, "batches \(batches)")
        }
    }
}

extension StorePropertyTests.PairComponent {
    var observers: Void {
        apply += { writes in
            for write in writes {
                if write.nested { applyNested.send(write) } else { pair.apply(write) }
            }
        }
        applyNested += { write in pair.apply(write) }
    }
}
