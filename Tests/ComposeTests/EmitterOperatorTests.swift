import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct EmitterOperatorTests {
    @Test func plusEqualsObservesEveryEmissionInSubscriptionOrder() {
        let emitter = Emitter<Int>()
        var log: [String] = []
        emitter += { log.append("a\($0)") }
        emitter += { log.append("b\($0)") }
        emitter.send(1)
        emitter.send(2)
        #expect(log == ["a1", "b1", "a2", "b2"])
    }

    @Test func bangPlusEqualsObservesOnlyTheNextEmission() {
        let emitter = Emitter<Int>()
        var seen: [Int] = []
        let token = emitter !+= { seen.append($0) }
        emitter.send(1)
        emitter.send(2)
        #expect(seen == [1])
        #expect(!token.isActive)
        #expect(emitter.observerCount == 0)
    }

    @Test func plusPlusEqualsReplaysTheLastValueThenObserves() {
        let emitter = Emitter<String>()
        var before: [String] = []
        emitter ++= { before.append($0) }
        #expect(before.isEmpty)
        emitter.send("x")
        var after: [String] = []
        emitter ++= { after.append($0) }
        emitter.send("y")
        #expect(before == ["x", "y"])
        #expect(after == ["x", "y"])
    }

    @Test func plusPlusEqualsOnASignalFiresAtOnceOnlyIfItWasEverSent() {
        let signal = SignalEmitter()
        var count = 0
        signal ++= { count += 1 }
        #expect(count == 0)
        signal.send()
        #expect(count == 1)
        var late = 0
        signal ++= { late += 1 }
        #expect(late == 1)
        #expect(signal.wasSent)
    }

    /// Signal observers are stored as their own `() -> Void` closures (no
    /// wrapping closure): each form of registration must still call them,
    /// keep what they capture alive while registered and let it go after.
    @Test func signalObserversAreCalledAndReleasedLikeValueObservers() {
        final class Box { var count = 0 }
        weak var released: Box?
        let signal = SignalEmitter()
        var log: [String] = []
        do {
            let box = Box()
            released = box
            let every = signal += { box.count += 1; log.append("every") }
            signal !+= { log.append("once") }
            signal { log.append("call") }
            signal.send()
            signal.send()
            #expect(box.count == 2)
            every.cancel()
        }
        #expect(log == ["every", "once", "call", "every", "call"])
        #expect(released == nil)
        signal.send()
        #expect(log.last == "call")
        #expect(signal.observerCount == 1)
    }

    @Test func tildePlusEqualsPairsEachEmissionWithThePreviousOne() {
        let emitter = Emitter<Int>()
        var pairs: [[Int]] = []
        emitter ~+= { new, old in pairs.append([new, old]) }
        emitter.send(1)
        emitter.send(2)
        emitter.send(5)
        #expect(pairs == [[2, 1], [5, 2]])
    }

    @Test func tildePlusEqualsUsesAValueSentBeforeSubscribingAsPrevious() {
        let emitter = Emitter<Int>()
        emitter.send(7)
        var pairs: [[Int]] = []
        emitter ~+= { new, old in pairs.append([new, old]) }
        emitter.send(8)
        #expect(pairs == [[8, 7]])
    }

    @Test func callSyntaxIsASynonymOfPlusEquals() {
        let signal = SignalEmitter()
        let values = Emitter<Int>()
        var log: [String] = []
        signal { log.append("signal") }
        values { log.append("value \($0)") }
        signal.send()
        values.send(3)
        #expect(log == ["signal", "value 3"])
    }

    @Test func cancelledTokensStopObservingAndCancelIsIdempotent() {
        let emitter = Emitter<Int>()
        var seen: [Int] = []
        let token = emitter += { seen.append($0) }
        emitter.send(1)
        token.cancel()
        token.cancel()
        emitter.send(2)
        #expect(seen == [1])
        #expect(emitter.observerCount == 0)
    }

    @Test func copiesOfAnEmitterShareObserversAndLastValue() {
        let original = Emitter<Int>()
        let copy = original
        var seen: [Int] = []
        copy += { seen.append($0) }
        original.send(4)
        #expect(seen == [4])
        #expect(copy.lastValue == 4)
    }
}
