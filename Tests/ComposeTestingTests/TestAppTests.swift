import ComposeApp
import ComposeTesting
import Testing

@MainActor
@Suite struct TestAppTests {
    // Virtual time, asserted in virtual time: each beat happens at its
    // minute, all within the one `advance` call. (A wall-clock bound on
    // the call failed on a loaded machine; an `advance` that waited in real
    // time would take ten minutes and hit the time limit instead. The limit
    // counts the wait for the main actor, which other suites hold: a
    // 1-minute limit was hit after 88 s on a loaded machine.)
    @Test(.timeLimit(.minutes(5))) func aOneMinuteTimerAdvancedByTenVirtualMinutesFiresExactlyTenTimesAtOnce() throws {
        let app = TestApp(root: Heartbeat())
        let heartbeat = try #require(app.root(as: Heartbeat.self))
        var beatTimes: [Duration] { app.events.filter { $0.path == "heartbeat.minute" }.map(\.time) }
        app.advance(by: .seconds(600))
        #expect(heartbeat.beats.value == 10)
        #expect(beatTimes == (1...10).map { .seconds(60 * $0) })
        #expect(app.now == .seconds(600))
        app.advance(by: .seconds(59))
        #expect(heartbeat.beats.value == 10)
        app.advance(by: .seconds(1))
        #expect(heartbeat.beats.value == 11)
        #expect(beatTimes.last == .seconds(660))
    }

    @Test func sigtermShutsTheAppDownGracefullyWithStatus0() throws {
        let journal = Journal()
        let app = TestApp(root: Worker(journal: journal, workMinutes: 100, status: 5))
        app.advance(by: .seconds(90))
        #expect(app.exitStatus == nil)
        app.send(.terminate)
        #expect(app.exitStatus == 0)
        #expect(journal.entries == ["appear", "willShutDown", "disappear"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func sighupReachesTheAppsProcessSignalAndNeverShutsItDown() {
        let journal = Journal()
        let app = TestApp(root: Worker(journal: journal, workMinutes: 100, status: 5))
        app.send(.hangup)
        app.send(.hangup)
        #expect(journal.entries == ["appear", "reload", "reload"])
        #expect(!app.hasExited)
    }

    @Test func aShutdownTheAppRequestsEndsWithItsStatus() {
        let journal = Journal()
        let app = TestApp(root: Worker(journal: journal, workMinutes: 3, status: 7))
        app.runUntilExit()
        #expect(app.exitStatus == 7)
        #expect(app.now == .seconds(180))
        #expect(journal.entries == ["appear", "done", "willShutDown", "disappear"])
    }

    @Test func aStartupComponentRunsAsMainRunsItAndAnEarlyShutdownIsHonoured() throws {
        let app = TestApp(StartupProbe.self)
        let probe = try #require(app.root(as: StartupProbe.self))
        #expect(app.exitStatus == 4)
        #expect(probe.journal.entries == ["willBind", "didBind", "appear", "willShutDown", "disappear"])
    }

    @Test func whatOutlivesTheTreeIsClosedByTheDeadlineOnVirtualTime() {
        let app = TestApp(root: Stubborn(), configuration: StartupConfiguration(shutdownDeadline: .seconds(5), forcedExitStatus: 3))
        app.send(.terminate)
        #expect(!app.hasExited)
        app.advance(by: .milliseconds(4_999))
        #expect(!app.hasExited)
        app.advance(by: .milliseconds(1))
        #expect(app.exitStatus == 3)
    }

    @Test func aSecondSignalDuringShutdownEndsTheAppAtOnceWith128PlusItsNumber() {
        let app = TestApp(root: Stubborn())
        app.send(.terminate)
        #expect(!app.hasExited)
        app.send(.interrupt)
        #expect(app.exitStatus == 128 + ProcessSignal.Name.interrupt.rawValue)
    }

    @Test func tasksStartedByObserversRunAsTheAppsCode() async throws {
        let app = TestApp(root: Spawner())
        let spawner = try #require(app.root(as: Spawner.self))
        await app.advance(by: .seconds(1))
        #expect(spawner.journal.entries == ["tick", "task", "task resumed"])
        // The task inherited the app's context: its shutdown reached this app.
        #expect(app.exitStatus == 9)
    }

    @Test func twoAppsOfTheSameTypeDoNotSeeEachOther() {
        let first = Journal(), second = Journal()
        let a = TestApp(root: Worker(journal: first, workMinutes: 2, status: 11))
        let b = TestApp(root: Worker(journal: second, workMinutes: 5, status: 12))
        a.advance(by: .seconds(120))
        #expect(a.exitStatus == 11)
        #expect(b.exitStatus == nil)
        #expect(second.entries == ["appear"])
        b.send(.hangup)
        #expect(first.entries == ["appear", "done", "willShutDown", "disappear"])
        b.runUntilExit()
        #expect(b.exitStatus == 12)
        #expect(b.now == .seconds(300))
        #expect(second.entries == ["appear", "reload", "done", "willShutDown", "disappear"])
    }

    /// Runs in parallel with itself (Swift Testing's default): each case
    /// interleaves with the others at every `await`, so any state shared
    /// between apps would mix their statuses or journals.
    @Test(arguments: 1...6) func appsRunningInParallelKeepTheirOwnState(minutes: Int) async {
        let journal = Journal()
        let app = TestApp(root: Worker(journal: journal, workMinutes: minutes, status: Int32(minutes)))
        for _ in 0..<minutes {
            #expect(app.exitStatus == nil)
            await app.advance(by: .seconds(60))
        }
        #expect(app.exitStatus == Int32(minutes))
        #expect(journal.entries == ["appear", "done", "willShutDown", "disappear"])
    }

    @Test func applicationCallsOutsideAnyAppAreADiagnostic() {
        let reported = Diagnostics.collectUnattached {
            Application.shutdown(status: 1)
        }
        #expect(reported.map(\.code) == [.noRunningApp])
        #expect(reported.first?.message.contains("Application.shutdown(status:)") == true)
    }
}
