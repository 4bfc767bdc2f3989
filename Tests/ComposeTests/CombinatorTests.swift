import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct CombinatorTests {
    // MARK: map

    @Test func mapTransformsEveryEmissionInOrder() {
        let numbers = Emitter<Int>()
        let labels = Recorder(numbers.map { "#\($0)" })
        numbers.send(1)
        numbers.send(2)
        numbers.send(2)
        #expect(labels.values == ["#1", "#2", "#2"])
    }

    @Test func mapStartsWithTheTransformedLastValueWithoutSendingIt() {
        let numbers = Emitter<Int>()
        numbers.send(2)
        var calls = 0
        let tens = numbers.map { value -> Int in
            calls += 1
            return value * 10
        }
        #expect(calls == 1)
        #expect(tens.lastValue == 20)
        let plain = Recorder(tens)
        #expect(plain.values.isEmpty)
        var replayed: [Int] = []
        tens ++= { replayed.append($0) }
        #expect(replayed == [20])
        numbers.send(3)
        #expect(replayed == [20, 30])
        #expect(plain.values == [30])
    }

    @Test func mapOfAnEmitterThatNeverSentHasNoLastValue() {
        let numbers = Emitter<Int>()
        var calls = 0
        let tens = numbers.map { value -> Int in
            calls += 1
            return value * 10
        }
        var replayed: [Int] = []
        tens ++= { replayed.append($0) }
        #expect(calls == 0)
        #expect(tens.lastValue == nil)
        #expect(replayed.isEmpty)
    }

    @Test func mapOfASignalTurnsEachSignalIntoAValue() {
        let tap = SignalEmitter()
        var taps = 0
        let counts = Recorder(tap.map { () -> Int in
            taps += 1
            return taps
        })
        tap.send()
        tap.send()
        #expect(counts.values == [1, 2])
    }

    @Test func mapWorksWithoutStoringTheDerivedEmitter() {
        let numbers = Emitter<Int>()
        var seen: [Int] = []
        numbers.map { $0 + 1 } += { seen.append($0) }
        numbers.send(1)
        numbers.send(5)
        #expect(seen == [2, 6])
    }

    // MARK: filter

    @Test func filterSendsOnlyIncludedValues() {
        let numbers = Emitter<Int>()
        let even = Recorder(numbers.filter { $0.isMultiple(of: 2) })
        for value in 1...6 { numbers.send(value) }
        #expect(even.values == [2, 4, 6])
    }

    @Test func filterStartsWithTheLastValueOnlyIfItIsIncluded() {
        let numbers = Emitter<Int>()
        numbers.send(4)
        #expect(numbers.filter { $0 > 3 }.lastValue == 4)
        #expect(numbers.filter { $0 > 5 }.lastValue == nil)
        var replayed: [Int] = []
        numbers.filter { $0 > 3 } ++= { replayed.append($0) }
        #expect(replayed == [4])
    }

    // MARK: compactMap

    @Test func compactMapDropsNilResults() {
        let input = Emitter<String>()
        let numbers = Recorder(input.compactMap { Int($0) })
        input.send("1")
        input.send("x")
        input.send("3")
        #expect(numbers.values == [1, 3])
    }

    @Test func compactMapStartsWithTheTransformedLastValueIfNotNil() {
        let input = Emitter<String>()
        input.send("21")
        #expect(input.compactMap { Int($0) }.lastValue == 21)
        input.send("abc")
        #expect(input.compactMap { Int($0) }.lastValue == nil)
    }

    // MARK: chaining

    @Test func chainedCombinatorsApplyInOrderAndReplayThroughTheChain() {
        let numbers = Emitter<Int>()
        numbers.send(3)
        let chain = numbers
            .map { $0 * 2 }
            .filter { $0 > 4 }
            .compactMap { $0 == 8 ? nil : "v\($0)" }
        var seen: [String] = []
        chain ++= { seen.append($0) }
        #expect(seen == ["v6"])
        numbers.send(1)   // 2, filtered out
        numbers.send(4)   // 8, compacted out
        numbers.send(5)   // 10
        #expect(seen == ["v6", "v10"])
    }

    // MARK: undup

    @Test func undupDropsConsecutiveDuplicatesOnly() {
        let numbers = Emitter<Int>()
        let distinct = Recorder(numbers.undup())
        for value in [1, 1, 2, 2, 2, 1, 1, 3] { numbers.send(value) }
        #expect(distinct.values == [1, 2, 1, 3])
    }

    @Test func undupByUsesTheGivenComparison() {
        let words = Emitter<String>()
        let changes = Recorder(words.undup { $0.lowercased() == $1.lowercased() })
        for word in ["Hi", "HI", "hi", "Bye", "bye", "Hi"] { words.send(word) }
        #expect(changes.values == ["Hi", "Bye", "Hi"])
    }

    @Test func undupComparesTheFirstValueWithTheUpstreamsLastValue() {
        let numbers = Emitter<Int>()
        numbers.send(5)
        let distinct = numbers.undup()
        var seen: [Int] = []
        distinct ++= { seen.append($0) }
        #expect(seen == [5])
        numbers.send(5)
        numbers.send(6)
        #expect(seen == [5, 6])
    }

    @Test func undupDropsADuplicateSentBackByItsOwnObserver() {
        let numbers = Emitter<Int>()
        var seen: [Int] = []
        numbers.undup() += { value in
            seen.append(value)
            numbers.send(value)   // reentrant duplicate: dropped, no loop
        }
        numbers.send(1)
        numbers.send(2)
        #expect(seen == [1, 2])
    }

    // MARK: dropFirst

    @Test func dropFirstIgnoresTheGivenNumberOfValuesAfterCreation() {
        let numbers = Emitter<Int>()
        numbers.send(0)
        let rest = numbers.dropFirst(2)
        #expect(rest.lastValue == nil)
        let seen = Recorder(rest)
        for value in 1...5 { numbers.send(value) }
        #expect(seen.values == [3, 4, 5])
    }

    @Test func dropFirstDropsOneByDefault() {
        let numbers = Emitter<Int>()
        let seen = Recorder(numbers.dropFirst())
        for value in 1...3 { numbers.send(value) }
        #expect(seen.values == [2, 3])
    }

    @Test func dropFirstWithZeroOrANegativeCountDropsNothing() {
        let numbers = Emitter<Int>()
        let zero = Recorder(numbers.dropFirst(0))
        let negative = Recorder(numbers.dropFirst(-3))
        numbers.send(1)
        numbers.send(2)
        #expect(zero.values == [1, 2])
        #expect(negative.values == [1, 2])
    }

    // MARK: once

    @Test func onceDeliversOnlyTheFirstEmissionAfterCreation() {
        let numbers = Emitter<Int>()
        numbers.send(0)
        let first = numbers.once()
        #expect(first.lastValue == nil)
        var seen: [Int] = []
        first += { seen.append($0) }
        numbers.send(1)
        numbers.send(2)
        #expect(seen == [1])
    }

    @Test func onceReleasesItsUpstreamAndObserversAfterFiring() {
        let numbers = Emitter<Int>()
        let first = numbers.once()
        first += { _ in }
        #expect(numbers.observerCount == 1)
        #expect(first.observerCount == 1)
        numbers.send(1)
        #expect(numbers.observerCount == 0)
        #expect(first.observerCount == 0)
        var replayed: [Int] = []
        first ++= { replayed.append($0) }
        #expect(replayed == [1])
        numbers.send(2)
        #expect(replayed == [1])
    }

    // MARK: merge

    @Test func mergeDeliversTheValuesOfEveryEmitterInSendOrder() {
        let a = Emitter<String>()
        let b = Emitter<String>()
        let c = Emitter<String>()
        let merged = Recorder(a.merge(b, c))
        a.send("a1")
        c.send("c1")
        b.send("b1")
        a.send("a2")
        #expect(merged.values == ["a1", "c1", "b1", "a2"])
    }

    @Test func staticMergeMergesAllItsArguments() {
        let a = Emitter<Int>()
        let b = Emitter<Int>()
        let c = Emitter<Int>()
        let merged = Recorder(Emitter.merge(a, b, c))
        c.send(3)
        a.send(1)
        b.send(2)
        #expect(merged.values == [3, 1, 2])
        #expect(Emitter<Int>.merge().lastValue == nil)
    }

    @Test func mergeAcceptsDerivedEmitters() {
        let clicks = SignalEmitter()
        let keys = Emitter<String>()
        let actions = Recorder(clicks.map { "click" }.merge(keys.filter { $0 == "enter" }))
        keys.send("a")
        clicks.send()
        keys.send("enter")
        #expect(actions.values == ["click", "enter"])
    }

    @Test func mergeEndsOnlyWhenEveryUpstreamHasEnded() {
        let kept = Emitter<Int>()
        let merged: Emitter<Int>
        let seen: Recorder<Int>
        do {
            let released = Emitter<Int>()
            merged = kept.merge(released)
            seen = Recorder(merged)
            released.send(1)
        }
        // `released` is gone; `kept` still feeds the merge.
        kept.send(2)
        #expect(seen.values == [1, 2])
        #expect(merged.observerCount == 1)
    }

    @Test func mergeEndsWhenEveryUpstreamHasEnded() {
        let merged: Emitter<Int>
        do {
            let a = Emitter<Int>()
            let b = Emitter<Int>()
            merged = a.merge(b)
            merged += { _ in }
            #expect(merged.observerCount == 1)
        }
        #expect(merged.observerCount == 0)
    }

    // MARK: combineLatest

    @Test func combineLatestWaitsForBothThenPairsEachEmissionWithTheOthersLatest() {
        let letters = Emitter<String>()
        let numbers = Emitter<Int>()
        let pairs = Recorder(letters.combineLatest(numbers).map { "\($0)\($1)" })
        letters.send("a")
        letters.send("b")
        #expect(pairs.values.isEmpty)
        numbers.send(1)
        letters.send("c")
        numbers.send(2)
        numbers.send(3)
        #expect(pairs.values == ["b1", "c1", "c2", "c3"])
    }

    @Test func combineLatestCountsLastValuesSentBeforeCreation() {
        let letters = Emitter<String>()
        let numbers = Emitter<Int>()
        letters.send("a")
        numbers.send(1)
        let combined = letters.combineLatest(numbers)
        #expect(combined.lastValue.map { "\($0)\($1)" } == "a1")
        var seen: [String] = []
        combined.map { "\($0)\($1)" } ++= { seen.append($0) }
        #expect(seen == ["a1"])
        numbers.send(2)
        #expect(seen == ["a1", "a2"])
    }

    @Test func combineLatestOfThreeEmittersWaitsForAllThree() {
        let a = Emitter<Int>()
        let b = Emitter<String>()
        let c = Emitter<Bool>()
        let triples = Recorder(a.combineLatest(b, c).map { "\($0)\($1)\($2)" })
        a.send(1)
        b.send("x")
        #expect(triples.values.isEmpty)
        c.send(true)
        b.send("y")
        a.send(2)
        c.send(false)
        #expect(triples.values == ["1xtrue", "1ytrue", "2ytrue", "2yfalse"])
    }

    // MARK: cancellation and cleanup

    @Test func cancellingADownstreamObserverStopsOnlyThatObserver() {
        let numbers = Emitter<Int>()
        let doubled = numbers.map { $0 * 2 }
        var first: [Int] = []
        var second: [Int] = []
        let token = doubled += { first.append($0) }
        doubled += { second.append($0) }
        numbers.send(1)
        token.cancel()
        numbers.send(2)
        #expect(first == [2])
        #expect(second == [2, 4])
        #expect(doubled.observerCount == 1)
    }

    @Test func derivedEmitterEndsWhenItsUpstreamIsReleased() {
        let doubled: Emitter<Int>
        let chained: Emitter<Int>
        do {
            let numbers = Emitter<Int>()
            doubled = numbers.map { $0 * 2 }
            chained = doubled.filter { $0 > 0 }
            doubled += { _ in }
            chained += { _ in }
            numbers.send(1)
            #expect(doubled.observerCount == 2)
            #expect(chained.observerCount == 1)
        }
        #expect(doubled.observerCount == 0)
        #expect(chained.observerCount == 0)
        #expect(chained.lastValue == 2)
    }

    @Test func sendingToADerivedEmitterReachesItsObserversOnly() {
        let numbers = Emitter<Int>()
        let doubled = numbers.map { $0 * 2 }
        let upstream = Recorder(numbers)
        let downstream = Recorder(doubled)
        doubled.send(7)
        #expect(downstream.values == [7])
        #expect(upstream.values.isEmpty)
    }
}
