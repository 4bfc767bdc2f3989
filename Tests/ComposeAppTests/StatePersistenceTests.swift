import ComposeApp
import ComposePersistence
import ComposeTesting
import Glibc
import Testing

/// A persisted state for these tests.
struct Tally: Codable, Equatable {
    var count: Int
}

/// A root whose teardown changes the persisted state, as a store written
/// in `didDisappear` would.
struct ChangesWhenTornDown: Component {
    var observers: Void {
        didDisappear += {
            Application.context?.statePersistence?.stateDidChange(Tally(count: 99), key: "tally")
        }
    }
}

/// The persistence coordinator on virtual time, through the protocol a
/// store uses (`restore`, `stateDidChange`), on TestApp's in-memory storage.
@MainActor
@Suite struct StatePersistenceTests {
    /// An app with a 500 ms debounce and a 2 s maximum wait.
    static func makeApp<Root: Component>(root: Root, setUp: (TestApp) -> Void = { _ in }) -> TestApp {
        TestApp(
            root: root,
            configuration: StartupConfiguration(statePersistence: .json(debounce: .milliseconds(500), maximumWait: .seconds(2))),
            setUp: setUp
        )
    }

    static func makeApp(setUp: (TestApp) -> Void = { _ in }) -> TestApp {
        makeApp(root: Idle(), setUp: setUp)
    }

    static func change(_ app: TestApp, to count: Int) {
        app.run { app.context.statePersistence?.stateDidChange(Tally(count: count), key: "tally") }
    }

    static func restore(_ app: TestApp) -> Tally? {
        app.run { app.context.statePersistence?.restore(Tally.self, key: "tally") }
    }

    @Test func aChangeIsSavedOnceTheStateStaysUnchangedForTheDebounce() {
        let app = Self.makeApp()
        Self.change(app, to: 1)
        app.advance(by: .milliseconds(499))
        #expect(app.stateStorage.saves.isEmpty)
        app.advance(by: .milliseconds(1))
        #expect(app.stateStorage.saves == ["tally"])
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 1))
        #expect(app.stateStorage.json(key: "tally") == #"{"version":1,"state":{"count":1}}"#)
    }

    @Test func eachChangeRestartsTheDebounce() {
        let app = Self.makeApp()
        Self.change(app, to: 1)
        app.advance(by: .milliseconds(300))
        Self.change(app, to: 2)
        app.advance(by: .milliseconds(499))
        #expect(app.stateStorage.saves.isEmpty, "at \(app.now)")
        app.advance(by: .milliseconds(1))
        #expect(app.stateStorage.saves == ["tally"])
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 2))
    }

    @Test func aStateThatKeepsChangingIsSavedAtLeastEveryMaximumWait() throws {
        let app = Self.makeApp()
        let persistence = try #require(app.context.statePersistence as? StatePersistence<InMemoryStateStorage>)
        var saves: [(at: Duration, count: Int?)] = []
        persistence.didSave += { _ in
            saves.append((app.now, app.stateStorage.state(Tally.self, key: "tally")?.count))
        }
        // A change every 100 ms for 5 s (at 50, 150, ..., 4950 ms), never
        // 500 ms apart: only the maximum wait saves it until it stops.
        app.advance(by: .milliseconds(50))
        for count in 1...50 {
            Self.change(app, to: count)
            app.advance(by: .milliseconds(100))
        }
        app.advance(by: .seconds(10))
        #expect(saves.map(\.at) == [.milliseconds(2050), .milliseconds(4050), .milliseconds(5450)])
        #expect(saves.map(\.count) == [20, 40, 50])
    }

    @Test func unsavedChangesAreSavedWhenTheAppShutsDown() {
        let app = Self.makeApp()
        Self.change(app, to: 7)
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.now < .milliseconds(500))
        #expect(app.stateStorage.saves == ["tally"])
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 7))
    }

    @Test func aChangeMadeWhileTheTreeIsTornDownIsSavedBeforeExit() {
        let app = Self.makeApp(root: ChangesWhenTornDown())
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 99))
    }

    @Test func restoreReturnsTheLatestStateBeforeItIsSaved() throws {
        let app = Self.makeApp { try? $0.stateStorage.seed(Tally(count: 1), key: "tally") }
        #expect(Self.restore(app) == Tally(count: 1))
        Self.change(app, to: 2)
        #expect(Self.restore(app) == Tally(count: 2))
        #expect(app.stateStorage.saves.isEmpty)
    }

    @Test func nothingSavedRestoresNilWithoutADiagnostic() {
        let app = Self.makeApp()
        #expect(Self.restore(app) == nil)
        #expect(app.diagnostics.isEmpty)
    }

    @Test(arguments: [
        "{\"version\":1,\"state\":{\"count\":1",          // truncated
        "{\"version\":1,\"state\":{\"count\":\"one\"}}",    // wrong type
        "{\"count\":1}",                                    // no envelope
        "\u{0}\u{0}\u{0}",                                  // not text
    ])
    func aCorruptStateIsMovedAsideReportedAndTheDefaultUsed(json: String) throws {
        let app = Self.makeApp { $0.stateStorage.seed(json: json, key: "tally") }
        #expect(Self.restore(app) == nil)
        let diagnostic = try #require(app.diagnostics.first)
        #expect(app.diagnostics.count == 1)
        #expect(diagnostic.code == .stateUnreadable)
        #expect(diagnostic.message.contains("memory:tally"))
        #expect(diagnostic.message.contains("moved aside to memory:tally.corrupt-1"))
        #expect(app.stateStorage.movedAside == [.init(key: "tally", bytes: Array(json.utf8))])
        #expect(app.stateStorage.contents["tally"] == nil)
        // The app goes on, and saves again.
        Self.change(app, to: 5)
        app.advance(by: .seconds(1))
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 5))
    }

    @Test func anUnreadableStateIsMovedAsideToo() throws {
        let app = Self.makeApp { app in
            app.stateStorage.seed(json: #"{"version":1,"state":{"count":1}}"#, key: "tally")
            app.stateStorage.loadError = LoopError("open", errno: EIO, context: "memory:tally")
        }
        #expect(Self.restore(app) == nil)
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.code == .stateUnreadable)
        #expect(diagnostic.message.contains("cannot be read (open failed: EIO (i/o error) for memory:tally)"))
        #expect(app.stateStorage.movedAside.count == 1)
    }

    @Test func aFailedSaveIsReportedKeepsThePreviousStateAndIsRetriedAtTheNextChange() throws {
        let app = Self.makeApp()
        Self.change(app, to: 1)
        app.advance(by: .seconds(1))
        #expect(app.stateStorage.saves == ["tally"])

        app.stateStorage.saveError = LoopError("write", errno: ENOSPC, context: "memory:.tally.tmp")
        Self.change(app, to: 2)
        app.advance(by: .seconds(1))
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.code == .stateSaveFailed)
        #expect(diagnostic.message.contains("memory:tally"))
        #expect(diagnostic.message.contains("write failed: ENOSPC (no space left on device)"))
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 1))
        #expect(Self.restore(app) == Tally(count: 2))
        #expect(app.context.shutdown.phase == .running)
        // No change, no new attempt.
        app.advance(by: .seconds(60))
        #expect(app.diagnostics.count == 1)

        // The disk has room again: the next change saves the latest state.
        app.stateStorage.saveError = nil
        Self.change(app, to: 3)
        app.advance(by: .milliseconds(500))
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 3))
        #expect(app.stateStorage.saves == ["tally", "tally"])
        #expect(app.diagnostics.count == 1)
    }

    @Test func aStateThatKeepsFailingIsAttemptedAtMostOncePerMaximumWait() {
        let app = Self.makeApp()
        app.stateStorage.saveError = LoopError("rename", errno: EROFS, context: "memory:tally")
        for count in 1...100 {
            Self.change(app, to: count)
            app.advance(by: .milliseconds(100))
        }
        // 10 s of changes every 100 ms, a save due every 2 s.
        #expect(app.diagnostics.count == 5)
        #expect(app.diagnostics.allSatisfy { $0.message.contains("EROFS (read-only file system)") })
    }

    @Test func aFailedSaveIsRetriedAtShutdown() {
        let app = Self.makeApp()
        app.stateStorage.saveError = LoopError("write", errno: ENOSPC)
        Self.change(app, to: 4)
        app.advance(by: .seconds(1))
        #expect(app.diagnostics.count == 1)
        app.stateStorage.saveError = nil
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 4))
    }

    @Test func aStateThatCannotBeEncodedIsReported() throws {
        struct Ratio: Codable { var value: Double }
        let app = Self.makeApp()
        app.run { app.context.statePersistence?.stateDidChange(Ratio(value: .nan), key: "ratio") }
        app.advance(by: .seconds(1))
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.code == .stateSaveFailed)
        #expect(diagnostic.message.contains("cannot be encoded"))
        #expect(app.stateStorage.contents.isEmpty)
    }

    @Test func withoutASchedulerEveryChangeIsSavedAtOnce() {
        let context = AppContext(name: "plain")
        let persistence = StatePersistence(storage: InMemoryStateStorage(), context: context)
        persistence.stateDidChange(Tally(count: 1), key: "tally")
        persistence.stateDidChange(Tally(count: 2), key: "tally")
        #expect(persistence.storage.saves == ["tally", "tally"])
        #expect(persistence.storage.state(Tally.self, key: "tally") == Tally(count: 2))
    }

    @Test func aSecondAppRestoresWhatTheFirstSaved() {
        let first = Self.makeApp()
        Self.change(first, to: 8)
        first.send(.terminate)
        first.runUntilExit()
        let second = Self.makeApp { $0.stateStorage = first.stateStorage }
        #expect(Self.restore(second) == Tally(count: 8))
    }

    /// Importing ComposePersistence is the opt-in: a persisted store in an
    /// app whose configuration names no back end installs the JSON one,
    /// with its default timing (a change is saved 0.5 s after the state
    /// stops changing, at most 1 s after it first changed).
    @Test func aPersistedStoreInstallsTheJSONBackEndWithItsDefaultTiming() throws {
        let app = TestApp(root: Tallied())
        let persistence = try #require(app.context.statePersistence as? StatePersistence<InMemoryStateStorage>)
        #expect(persistence.debounce == .milliseconds(500))
        #expect(persistence.maximumWait == .seconds(1))
        let tallied = try #require(app.root(as: Tallied.self))
        // A change every 400 ms: never still for the debounce, saved once
        // the first unsaved change is a second old.
        for count in 1...3 {
            app.run { tallied.tally.count = count }
            app.advance(by: .milliseconds(400))
        }
        #expect(app.stateStorage.saves == ["tally"])
        #expect(app.stateStorage.state(Tally.self, key: "tally") == Tally(count: 3))
        app.flushState()
        #expect(app.diagnostics.isEmpty)
    }

    /// An app that persists nothing installs nothing.
    @Test func anAppWithoutPersistedStoresHasNoBackEnd() {
        let app = TestApp(root: Idle())
        #expect(app.context.statePersistence == nil)
        #expect(app.context.stateStorage != nil)
    }
}

/// A root with a persisted store and no persistence configured.
struct Tallied: Component {
    @Store(persistedAs: "tally") var tally = Tally(count: 0)

    var observers: Void { None }
}

/// Nothing: a root for tests that only need an app.
struct Idle: Component {
    var observers: Void { None }
}
