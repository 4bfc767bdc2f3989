import Compose
import ComposeTesting
import Testing

/// A store's state lives behind a pointer, which Swift does not check for
/// overlapping accesses; the store checks them itself. A mutating method
/// of the state that reaches the same store while it is modified in place
/// stops with a message naming the store (an exit test: it must die in a
/// child process), instead of reading or writing memory under an inout
/// access (undefined behaviour; see docs/unsafe.md).
@Suite struct StoreOverlapTests {
    struct Counter: Equatable {
        var count = 0
        mutating func bump(then hook: () -> Void) {
            count += 1
            hook()
        }
    }

    struct Tally: Component {
        @Store var counter = Counter()
        var observers: Void { None }
    }

    @Test func aStoreWrittenWhileItsStateIsModifiedInPlaceStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let host = TestHost(Tally())
                let tally = host.root
                tally.counter.bump { tally.counter = Counter(count: 100) }
            }
        }
        let stderr = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(stderr.contains("tally.counter was read or written while it was being modified in place"))
    }

    @MainActor @Test func modifyingInPlaceThenAssigningIsFineAndSendsEachChange() {
        let host = TestHost(Tally())
        let tally = host.root
        var seen: [Int] = []
        tally.$counter += { seen.append($0.count) }
        tally.counter.bump {}
        var copy = tally.counter
        copy.bump { tally.counter.count += 10 }
        tally.counter = copy
        #expect(seen == [1, 11, 2])
        #expect(tally.counter.count == 2)
    }
}
