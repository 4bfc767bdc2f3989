import Compose
import ComposeTesting
import Testing

private struct AsyncSource: Component {
    let numbers = Emitter<Int>()
    var observers: Void { None }
}

/// Values a background loop received, read by the test on the main actor.
@MainActor
private final class Inbox {
    var values: [Int] = []
}

/// Lets other main-actor jobs run until `condition` holds (bounded, so a
/// broken implementation fails the expectation after it instead of hanging).
@MainActor
private func yield(until condition: () -> Bool) async {
    var rounds = 0
    while !condition(), rounds < 10_000 {
        await Task.yield()
        rounds += 1
    }
}

@MainActor
@Suite struct AsyncEmitterTests {
    // MARK: values

    @Test func valuesYieldsValuesSentLaterInOrder() async {
        let emitter = Emitter<Int>()
        let stream = emitter.values
        Task { @MainActor in
            emitter.send(1)
            emitter.send(2)
            emitter.send(3)
        }
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            if received.count == 3 { break }
        }
        #expect(received == [1, 2, 3])
    }

    @Test func valuesReceivesValuesSentFromAnotherTask() async {
        let emitter = Emitter<String>()
        let stream = emitter.values
        Task.detached {
            await emitter.send("from")
            await emitter.send("elsewhere")
        }
        var received: [String] = []
        for await value in stream {
            received.append(value)
            if received.count == 2 { break }
        }
        #expect(received == ["from", "elsewhere"])
    }

    @Test func valuesDoesNotReplayAValueSentBeforeIt() async {
        let emitter = Emitter<Int>()
        emitter.send(1)
        let stream = emitter.values
        Task { @MainActor in emitter.send(2) }
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            break
        }
        #expect(received == [2])
    }

    @Test func valuesFinishesWhenTheOwnerIsDestroyed() async {
        let source = AsyncSource()
        let tree = ComponentTree(source)
        let stream = source.numbers.values
        Task { @MainActor in
            source.numbers.send(1)
            source.numbers.send(2)
            tree.destroy()
            source.numbers.send(3)
        }
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1, 2])
    }

    @Test func valuesOfADerivedEmitterFinishesWhenItsUpstreamEnds() async {
        let source = AsyncSource()
        let tree = ComponentTree(source)
        let stream = source.numbers.map { $0 * 10 }.values
        Task { @MainActor in
            source.numbers.send(1)
            tree.destroy()
        }
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [10])
    }

    @Test func valuesOfOnceYieldsOneValueAndFinishes() async {
        let emitter = Emitter<Int>()
        let stream = emitter.once().values
        Task { @MainActor in
            emitter.send(1)
            emitter.send(2)
        }
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1])
    }

    @Test func breakingOutOfTheLoopCancelsTheObserver() async {
        let emitter = Emitter<Int>()
        Task { @MainActor in emitter.send(1) }
        for await _ in emitter.values { break }
        await yield { emitter.observerCount == 0 }
        #expect(emitter.observerCount == 0)
    }

    @Test func cancellingTheIteratingTaskEndsTheLoopAndCancelsTheObserver() async {
        let emitter = Emitter<Int>()
        let inbox = Inbox()
        let task = Task { @MainActor in
            for await value in emitter.values { inbox.values.append(value) }
            return "finished"
        }
        await yield { emitter.observerCount == 1 }
        emitter.send(1)
        await yield { inbox.values == [1] }
        task.cancel()
        #expect(await task.value == "finished")
        await yield { emitter.observerCount == 0 }
        #expect(emitter.observerCount == 0)
        #expect(inbox.values == [1])
    }

    @Test func valuesWithABoundedBufferKeepsOnlyTheNewest() async {
        let emitter = Emitter<Int>()
        let stream = emitter.values(bufferingPolicy: .bufferingNewest(1))
        emitter.send(1)
        emitter.send(2)
        emitter.send(3)
        var received: [Int] = []
        for await value in stream {
            received.append(value)
            break
        }
        #expect(received == [3])
    }

    // MARK: next()

    @Test func nextReturnsTheNextValueSent() async {
        let emitter = Emitter<Int>()
        emitter.send(1)
        Task { @MainActor in
            emitter.send(2)
            emitter.send(3)
        }
        let value = await emitter.next()
        #expect(value == 2)
        #expect(emitter.observerCount == 0)
    }

    @Test func nextReturnsAValueSentFromAnotherTask() async {
        let emitter = Emitter<String>()
        Task.detached { await emitter.send("hello") }
        #expect(await emitter.next() == "hello")
    }

    @Test func nextReturnsNilWhenTheAwaitingTaskIsCancelled() async {
        let emitter = Emitter<Int>()
        let task = Task { @MainActor in await emitter.next() }
        await yield { emitter.observerCount == 1 }
        #expect(emitter.observerCount == 1)
        task.cancel()
        #expect(await task.value == nil)
        #expect(emitter.observerCount == 0)
        emitter.send(1)   // nobody is resumed twice
    }

    @Test func nextReturnsNilAtOnceInAnAlreadyCancelledTask() async {
        let emitter = Emitter<Int>()
        let task = Task { @MainActor in await emitter.next() }
        task.cancel()
        #expect(await task.value == nil)
        #expect(emitter.observerCount == 0)
    }

    @Test func nextReturnsNilWhenTheOwnerIsDestroyed() async {
        let source = AsyncSource()
        let tree = ComponentTree(source)
        Task { @MainActor in tree.destroy() }
        #expect(await source.numbers.next() == nil)
    }

    @Test func nextKeepsTheValueWhenCancelledRightAfterIt() async {
        let emitter = Emitter<Int>()
        let task = Task { @MainActor in await emitter.next() }
        await yield { emitter.observerCount == 1 }
        emitter.send(7)
        task.cancel()   // its handler hops to the main actor and finds nothing to resume
        #expect(await task.value == 7)
        for _ in 0..<10 { await Task.yield() }
    }
}
