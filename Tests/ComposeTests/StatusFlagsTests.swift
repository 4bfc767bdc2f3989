import Compose
import ComposeTesting
import Synchronization
import Testing

/// A component with status flags, for tests that run it in an app.
struct StatusInbox: Component {
    let status = Status()
    var observers: Void { None }
}

private struct Failure: Error, Equatable {}

@MainActor
@Suite struct StatusFlagsTests {
    // MARK: Setting and clearing

    @Test func setAndClearSendOnlyChanges() {
        let status = Status()
        let sent = Recorder(status)
        status.set(.loading)
        status.set(.loading)
        status.set(.saving)
        status.clear(.loading)
        status.clear(.loading)
        status.clear(.sending)
        #expect(sent.values == [[.loading], [.loading, .saving], [.saving]])
        #expect(status.flags == [.saving])
        #expect(status.contains(.saving))
        #expect(!status.contains(.loading))
        #expect(!status.isEmpty)
    }

    @Test func theCurrentFlagsAreReplayedFromTheStart() {
        let status = Status()
        var seen: [Set<StatusFlag>] = []
        status ++= { seen.append($0) }
        #expect(seen == [[]])
        status.set(.saving)
        var late: [Set<StatusFlag>] = []
        status ++= { late.append($0) }
        #expect(late == [[.saving]])
    }

    @Test func changesOfOneFlagIgnoreTheOthers() {
        let status = Status()
        let loading = status.changes(of: .loading)
        #expect(loading.lastValue == false)
        let sent = Recorder(loading)
        status.set(.saving)
        status.set(.loading)
        status.clear(.saving)
        status.clear(.loading)
        #expect(sent.values == [true, false])
    }

    @Test func oldAndNewFlagsReachChangeObservers() {
        let status = Status()
        var changes: [String] = []
        status ~+= { new, old in changes.append("\(old.count)→\(new.count)") }
        status.set(.loading)
        status.set(.saving)
        #expect(changes == ["0→1", "1→2"])
    }

    @Test func flagsOfYourOwnType() {
        enum Phase: Hashable, Sendable { case connecting, syncing }
        let status = StatusFlags<Phase>()
        status.set(.syncing)
        #expect(status.flags == [.syncing])
        let custom: StatusFlag = "uploading"
        #expect(custom.rawValue == "uploading")
        #expect(custom == StatusFlag(rawValue: "uploading"))
    }

    @Test func copiesShareTheirFlags() {
        let status = Status()
        let copy = status
        copy.set(.loading)
        #expect(status.contains(.loading))
    }

    // MARK: while

    @Test func whileHoldsTheFlagDuringTheOperationAndReturnsItsResult() async {
        let status = Status()
        let sent = Recorder(status)
        let inside = await status.while(.loading) { () async -> Bool in
            status.contains(.loading)
        }
        #expect(inside)
        #expect(status.flags.isEmpty)
        #expect(sent.values == [[.loading], []])
    }

    @Test func whileClearsTheFlagWhenTheOperationThrows() async {
        let status = Status()
        let sent = Recorder(status)
        await #expect(throws: Failure.self) {
            try await status.while(.saving) { () async throws(Failure) -> Void in throw Failure() }
        }
        #expect(status.flags.isEmpty)
        #expect(sent.values == [[.saving], []])
    }

    @Test func overlappingUsesKeepTheFlagUntilTheLastEnds() async {
        let status = Status()
        let sent = Recorder(status)
        let first = Gate(), second = Gate()
        let a = Task { await status.while(.loading) { await first.wait() } }
        let b = Task { await status.while(.loading) { await second.wait() } }
        await first.waitUntilWaiting()
        await second.waitUntilWaiting()
        #expect(status.contains(.loading))
        first.open()
        await a.value
        #expect(status.contains(.loading))   // b is still loading
        second.open()
        await b.value
        #expect(status.flags.isEmpty)
        #expect(sent.values == [[.loading], []])
    }

    @Test func aNestedUseOfTheSameFlagIsCountedToo() async {
        let status = Status()
        let sent = Recorder(status)
        await status.while(.loading) {
            await status.while(.loading) {}
            #expect(status.contains(.loading))
        }
        #expect(sent.values == [[.loading], []])
    }

    @Test func aFlagAlsoSetByHandStaysUntilCleared() async {
        let status = Status()
        status.set(.loading)
        await status.while(.loading) {}
        #expect(status.contains(.loading))
        await status.while(.loading) { status.clear(.loading) }
        #expect(status.flags.isEmpty)
    }

    @Test func whileClearsTheFlagWhenItsTaskIsCancelled() async {
        let status = Status()
        let sent = Recorder(status)
        let gate = Gate()
        let task = Task { try await status.while(.loading) { try await gate.waitUntilCancelled() } }
        await gate.waitUntilWaiting()
        #expect(status.contains(.loading))
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(status.flags.isEmpty)
        #expect(sent.values == [[.loading], []])
    }

    @Test func onTheVirtualClockTheFlagFollowsTheSleepAndItsCancellation() async throws {
        let app = TestApp(root: StatusInbox())
        let inbox = try #require(app.root(as: StatusInbox.self))
        let clock = app.context.clock
        let loading = Recorder(inbox.status.changes(of: .loading))
        let saving = Recorder(inbox.status.changes(of: .saving))
        Task { try await inbox.status.while(.loading) { try await clock.sleep(for: .seconds(5)) } }   // virtual time: the TestApp's clock
        let save = Task { try await inbox.status.while(.saving) { try await clock.sleep(for: .seconds(60)) } }   // virtual time
        await app.advance(by: .seconds(4))
        #expect(inbox.status.flags == [.loading, .saving])
        await app.advance(by: .seconds(1))
        #expect(inbox.status.flags == [.saving])
        save.cancel()
        await app.settle()
        #expect(inbox.status.flags.isEmpty)
        #expect(app.now == .seconds(5))
        #expect(loading.values == [true, false])
        #expect(saving.values == [true, false])
    }

    @Test func itsObserversEndWithTheComponent() {
        let host = TestHost(StatusInbox())
        let sent = Recorder(host.root.status)
        host.root.status.set(.loading)
        host.tree.destroy()
        host.root.status.set(.saving)
        #expect(sent.values == [[.loading]])
    }
}

/// A point an operation waits at until the test opens it (or cancels the
/// waiting task); the test can wait until the operation is there.
private final class Gate: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, any Error>)
        case opened
        case cancelled
    }

    private let state = Mutex(State.idle)
    private let arrivals = AsyncStream<Void>.makeStream()

    /// Waits until `open()`.
    func wait() async {
        try? await waitUntilCancelled()
    }

    /// Waits until `open()`, or throws `CancellationError` when the task is
    /// cancelled.
    func waitUntilCancelled() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = state.withLock { state in
                    switch state {
                    case .idle:
                        state = .waiting(continuation)
                        return nil
                    case .opened: return .success(())
                    case .cancelled, .waiting: return .failure(CancellationError())
                    }
                }
                if let resume { continuation.resume(with: resume) }
                arrivals.continuation.yield()
            }
        } onCancel: {
            finish(as: .cancelled, with: .failure(CancellationError()))
        }
    }

    /// Waits until an operation waits at the gate.
    func waitUntilWaiting() async {
        var iterator = arrivals.stream.makeAsyncIterator()
        _ = await iterator.next()
    }

    /// Lets the waiting operation go on.
    func open() {
        finish(as: .opened, with: .success(()))
    }

    private func finish(as end: State, with result: Result<Void, any Error>) {
        let waiting: CheckedContinuation<Void, any Error>? = state.withLock { state in
            if case .waiting(let continuation) = state {
                state = end
                return continuation
            }
            if case .idle = state { state = end }
            return nil
        }
        waiting?.resume(with: result)
    }
}
