import Compose
import ComposeTesting
import Testing

private struct TimedSource: Component {
    let numbers = Emitter<Int>()
    var observers: Void { None }
}

/// Runs its actions only when told, newest first: a scheduler that does not
/// keep the order of actions due at the same time.
@MainActor
private final class NewestFirstScheduler: Scheduler {
    nonisolated var now: Duration { .zero }
    private var actions: [(ScheduledAction, @MainActor () -> Void)] = []
    private var nextID: UInt64 = 1

    func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
        let handle = ScheduledAction(id: nextID)
        nextID += 1
        actions.append((handle, action))
        return handle
    }

    func cancel(_ action: ScheduledAction) {
        actions.removeAll { $0.0 == action }
    }

    func runAll() {
        while let (_, action) = actions.popLast() { action() }
    }
}

@MainActor
@Suite struct TimeCombinatorTests {
    let scheduler = VirtualScheduler()

    // MARK: debounce

    @Test func debounceDeliversOnlyTheLastValueAfterQuiet() {
        let input = Emitter<Int>()
        let quiet = Recorder(input.debounce(for: .milliseconds(300), scheduler: scheduler))
        input.send(1)
        scheduler.advance(by: .milliseconds(100))
        input.send(2)
        scheduler.advance(by: .milliseconds(100))
        input.send(3)                                   // at 200 ms
        scheduler.advance(by: .milliseconds(299))       // 499 ms
        #expect(quiet.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))         // 500 ms
        #expect(quiet.values == [3])
        scheduler.advance(by: .seconds(10))
        #expect(quiet.values == [3])
    }

    @Test func debounceRestartsTheWaitOnEveryValue() {
        let input = Emitter<String>()
        let quiet = Recorder(input.debounce(for: .milliseconds(300), scheduler: scheduler))
        input.send("a")
        scheduler.advance(by: .milliseconds(299))
        input.send("ab")
        scheduler.advance(by: .milliseconds(299))
        #expect(quiet.values.isEmpty)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(1))
        #expect(quiet.values == ["ab"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func debounceDeliversEachBurstSeparately() {
        let input = Emitter<Int>()
        let quiet = Recorder(input.debounce(for: .seconds(1), scheduler: scheduler))
        input.send(1)
        input.send(2)
        scheduler.advance(by: .seconds(1))
        input.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(quiet.values == [2, 3])
    }

    @Test func debounceCancelsItsPendingDeliveryWhenTheUpstreamOwnerIsDestroyed() {
        let source = TimedSource()
        let tree = ComponentTree(source)
        var delivered: [Int] = []
        let quiet = source.numbers.debounce(for: .seconds(1), scheduler: scheduler)
        quiet += { delivered.append($0) }
        source.numbers.send(1)
        #expect(scheduler.pendingCount == 1)
        tree.destroy()
        #expect(scheduler.pendingCount == 0)
        #expect(quiet.observerCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(delivered.isEmpty)
    }

    @Test func debounceWithNoObserverLeftStillRunsSafely() {
        let input = Emitter<Int>()
        let quiet = input.debounce(for: .seconds(1), scheduler: scheduler)
        let token = quiet += { _ in Issue.record("cancelled observer was called") }
        input.send(1)
        token.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(quiet.lastValue == 1)
    }

    // MARK: delay

    @Test func delayDeliversEveryValueLaterInOrder() {
        let input = Emitter<Int>()
        let later = Recorder(input.delay(for: .milliseconds(100), scheduler: scheduler))
        input.send(1)                                   // due at 100
        scheduler.advance(by: .milliseconds(10))
        input.send(2)                                   // due at 110
        input.send(3)                                   // due at 110
        #expect(later.values.isEmpty)
        scheduler.advance(by: .milliseconds(89))        // 99
        #expect(later.values.isEmpty)
        scheduler.advance(by: .milliseconds(1))         // 100
        #expect(later.values == [1])
        scheduler.advance(by: .milliseconds(9))         // 109
        #expect(later.values == [1])
        scheduler.advance(by: .milliseconds(1))         // 110
        #expect(later.values == [1, 2, 3])
    }

    @Test func delayKeepsOrderEvenIfTheSchedulerRunsActionsOutOfOrder() {
        let unordered = NewestFirstScheduler()
        let input = Emitter<Int>()
        let later = Recorder(input.delay(for: .seconds(1), scheduler: unordered))
        input.send(1)
        input.send(2)
        input.send(3)
        unordered.runAll()
        #expect(later.values == [1, 2, 3])
    }

    @Test func delayDropsWaitingValuesWhenTheUpstreamOwnerIsDestroyed() {
        let source = TimedSource()
        let tree = ComponentTree(source)
        var delivered: [Int] = []
        source.numbers.delay(for: .seconds(1), scheduler: scheduler) += { delivered.append($0) }
        source.numbers.send(1)
        source.numbers.send(2)
        #expect(scheduler.pendingCount == 2)
        tree.destroy()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(delivered.isEmpty)
    }

    // MARK: throttle

    @Test func throttleSendsTheFirstValueAtOnceAndTheLatestHeldOneAtWindowEnd() {
        let input = Emitter<Int>()
        let throttled = Recorder(input.throttle(for: .milliseconds(100), scheduler: scheduler))
        input.send(1)                                   // window 0..100
        #expect(throttled.values == [1])
        scheduler.advance(by: .milliseconds(10))
        input.send(2)
        scheduler.advance(by: .milliseconds(10))
        input.send(3)
        scheduler.advance(by: .milliseconds(79))        // 99
        #expect(throttled.values == [1])
        scheduler.advance(by: .milliseconds(1))         // 100: 3 out, window 100..200
        #expect(throttled.values == [1, 3])
        scheduler.advance(by: .milliseconds(50))
        input.send(4)                                   // held
        scheduler.advance(by: .milliseconds(49))        // 199
        #expect(throttled.values == [1, 3])
        scheduler.advance(by: .milliseconds(1))         // 200: 4 out, window 200..300
        #expect(throttled.values == [1, 3, 4])
        scheduler.advance(by: .milliseconds(100))       // 300: nothing held, closed
        #expect(throttled.values == [1, 3, 4])
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .milliseconds(50))
        input.send(5)                                   // no window: at once
        #expect(throttled.values == [1, 3, 4, 5])
    }

    @Test func throttleWithLatestFalseSendsTheFirstHeldValue() {
        let input = Emitter<Int>()
        let throttled = Recorder(input.throttle(for: .milliseconds(100), scheduler: scheduler, latest: false))
        input.send(1)
        input.send(2)
        input.send(3)
        #expect(throttled.values == [1])
        scheduler.advance(by: .milliseconds(100))
        #expect(throttled.values == [1, 2])
        input.send(4)
        input.send(5)
        scheduler.advance(by: .milliseconds(99))
        #expect(throttled.values == [1, 2])
        scheduler.advance(by: .milliseconds(1))
        #expect(throttled.values == [1, 2, 4])
    }

    @Test func throttleHoldsAValueSentJustBeforeTheWindowEnds() {
        let input = Emitter<Int>()
        let throttled = Recorder(input.throttle(for: .milliseconds(100), scheduler: scheduler))
        input.send(1)
        scheduler.advance(by: .milliseconds(99))
        input.send(2)
        #expect(throttled.values == [1])
        scheduler.advance(by: .milliseconds(1))
        #expect(throttled.values == [1, 2])
    }

    @Test func throttleSendsAtOnceOnceTheWindowHasEnded() {
        let input = Emitter<Int>()
        let throttled = Recorder(input.throttle(for: .milliseconds(100), scheduler: scheduler))
        input.send(1)
        scheduler.advance(by: .milliseconds(100))
        input.send(2)
        #expect(throttled.values == [1, 2])
    }

    @Test func throttleHoldsAValueSentBackByItsOwnObserver() {
        let input = Emitter<Int>()
        let throttled = input.throttle(for: .milliseconds(100), scheduler: scheduler)
        var seen: [Int] = []
        throttled += { value in
            seen.append(value)
            if value == 1 { input.send(2) }
        }
        input.send(1)
        #expect(seen == [1])
        scheduler.advance(by: .milliseconds(100))
        #expect(seen == [1, 2])
    }

    @Test func throttleCancelsItsWindowWhenTheUpstreamOwnerIsDestroyed() {
        let source = TimedSource()
        let tree = ComponentTree(source)
        var delivered: [Int] = []
        source.numbers.throttle(for: .seconds(1), scheduler: scheduler) += { delivered.append($0) }
        source.numbers.send(1)
        source.numbers.send(2)
        #expect(delivered == [1])
        #expect(scheduler.pendingCount == 1)
        tree.destroy()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(delivered == [1])
    }

    // MARK: chaining

    @Test func timeCombinatorsChainWithTheOthers() {
        let input = Emitter<String>()
        let searches = Recorder(
            input
                .map { $0.trimmingPrefixSpaces() }
                .undup()
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .filter { !$0.isEmpty }
        )
        input.send("s")
        input.send("sw")
        scheduler.advance(by: .milliseconds(300))
        input.send(" sw")   // same after trimming: dropped by undup
        scheduler.advance(by: .milliseconds(300))
        input.send("")
        scheduler.advance(by: .milliseconds(300))
        #expect(searches.values == ["sw"])
    }
}

private extension String {
    func trimmingPrefixSpaces() -> String {
        String(drop { $0 == " " })
    }
}
