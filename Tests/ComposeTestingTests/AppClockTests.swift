import ComposeApp
import ComposeTesting
import Testing

/// Starts a task per entry of `naps` when it appears: each sleeps on the
/// app's clock for its durations in turn, writing down when it woke.
struct Napper: Component {
    let naps: [String: [Duration]]
    let journal = Journal()
    let tasks = Tasks()
    var observers: Void {
        didAppear += {
            for (name, durations) in naps.sorted(by: { $0.key < $1.key }) {
                tasks.all.append(Task {
                    do {
                        for duration in durations {
                            try await Application.clock.sleep(for: duration)   // virtual time: the test app's clock
                            journal.entries.append("\(name) woke at \(AppEvent.format(Application.clock.now.offset))")
                        }
                    } catch {
                        journal.entries.append("\(name) \(error is CancellationError ? "cancelled" : "failed") at \(AppEvent.format(Application.clock.now.offset))")
                    }
                })
            }
        }
    }
}

@MainActor
final class Tasks {
    var all: [Task<Void, Never>] = []
}

/// Sleeps 30 virtual seconds, then shuts the app down with status 7.
struct LateQuitter: Component {
    var observers: Void {
        didAppear += {
            Task {
                try await Application.clock.sleep(for: .seconds(30))   // virtual time: the test app's clock
                Application.shutdown(status: 7)
            }
        }
    }
}

@MainActor
@Suite struct AppClockTests {
    @Test func tasksSleepingOnTheAppClockWakeInVirtualTimeOrder() async throws {
        let app = TestApp(root: Napper(naps: [
            "a": [.seconds(2), .seconds(2)],   // wakes at 2 s and 4 s
            "b": [.seconds(3)],
            "c": [.milliseconds(500)],
        ]))
        let napper = try #require(app.root(as: Napper.self))
        await app.advance(by: .seconds(10))
        #expect(napper.journal.entries == ["c woke at 0.5s", "a woke at 2s", "b woke at 3s", "a woke at 4s"])
        #expect(app.now == .seconds(10))
    }

    @Test func nothingWakesBeforeItsTime() async throws {
        let app = TestApp(root: Napper(naps: ["a": [.seconds(5)]]))
        let napper = try #require(app.root(as: Napper.self))
        await app.advance(by: .milliseconds(4999))
        #expect(napper.journal.entries.isEmpty)
        await app.advance(by: .milliseconds(1))
        #expect(napper.journal.entries == ["a woke at 5s"])
    }

    @Test func aSleepKeepsTheAppRunningUntilItWakes() async {
        let app = TestApp(root: LateQuitter())
        await app.runUntilExit()
        #expect(app.exitStatus == 7)
        #expect(app.now == .seconds(30))
    }

    @Test func shuttingDownEndsEverySleepWithCancellation() async throws {
        let app = TestApp(root: Napper(naps: ["a": [.seconds(3600)], "b": [.seconds(60)]]))
        let napper = try #require(app.root(as: Napper.self))
        await app.advance(by: .seconds(1))
        app.send(.terminate)
        await app.settle()
        // Both at 1 s; which task runs first is up to the main actor.
        #expect(napper.journal.entries.sorted() == ["a cancelled at 1s", "b cancelled at 1s"])
        // Ended at once, not by the shutdown deadline.
        #expect(app.exitStatus == 0)
        #expect(app.now == .seconds(1))
    }

    @Test func cancellingTheTaskEndsItsSleep() async throws {
        let app = TestApp(root: Napper(naps: ["a": [.seconds(60)], "b": [.seconds(90)]]))
        let napper = try #require(app.root(as: Napper.self))
        await app.advance(by: .seconds(10))
        napper.tasks.all[0].cancel()
        await app.advance(by: .seconds(80))
        #expect(napper.journal.entries == ["a cancelled at 10s", "b woke at 90s"])
    }

    @Test func outsideAnAppTheClockIsRealTime() async throws {
        let clock = Application.clock
        let start = clock.now
        // Real time, on purpose: what is tested is that the clock of no app
        // sleeps on ContinuousClock.
        try await clock.sleep(for: .milliseconds(5))   // real time: the subject is the clock of no app
        #expect(start.duration(to: clock.now) >= .milliseconds(5))
    }
}
