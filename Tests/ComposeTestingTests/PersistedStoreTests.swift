import ComposeApp
import ComposePersistence
import ComposeTesting
import Testing

/// `@Store(persistedAs:)` against a recording back end.
@MainActor
@Suite struct PersistedStoreTests {
    let log = StoreLog()

    /// A louder setting, changed from an observer.
    struct Volume: Component {
        @Store(persistedAs: "volume") var settings = Settings()
        let louder = SignalEmitter()
        let twice = SignalEmitter()
        let log: StoreLog
    }

    @Test func restoresBeforeObserversRunAndReportsEverySentChange() {
        let persistence = RecordingPersistence()
        persistence.saved["volume"] = Settings(volume: 9)
        let app = TestApp(root: VolumeApp(log: log)) { app in
            app.context.statePersistence = persistence
        }
        let volume = app.root(as: VolumeApp.self)!.volume
        #expect(persistence.restores == ["volume"])
        #expect(log.notes == ["observers read 9"])
        #expect(persistence.changes.isEmpty)
        app.run { volume.louder.send() }
        app.run { volume.twice.send() }
        // One report per send, none for an equal write.
        volume.settings = volume.settings
        #expect(persistence.changes == ["volume=Settings(volume: 10)", "volume=Settings(volume: 12)"])
    }

    @Test func withoutABackEndOrAStorageAPersistedStoreLivesInMemory() {
        // A TestApp offers in-memory storage: take it away.
        let app = TestApp(root: VolumeApp(log: log)) { app in
            app.context.stateStorage = nil
        }
        let volume = app.root(as: VolumeApp.self)!.volume
        #expect(app.context.statePersistence == nil)
        app.run { volume.louder.send() }
        #expect(volume.settings.volume == 6)
        // The app is told why nothing is saved.
        #expect(app.diagnostics.map(\.code) == [.noStatePersistence])
        #expect(app.diagnostics.first?.message.contains("neither state persistence nor a state storage") == true)
    }

    /// Importing ComposePersistence is the whole opt-in: the first
    /// persisted store installs the JSON back end on the app's storage.
    @Test func withoutABackEndTheFirstStoreInstallsTheJSONOneOnTheStorage() throws {
        let app = TestApp(root: VolumeApp(log: log)) { app in
            try? app.stateStorage.seed(Settings(volume: 8), key: "volume")
        }
        let volume = app.root(as: VolumeApp.self)!.volume
        #expect(app.context.statePersistence is StatePersistence<InMemoryStateStorage>)
        #expect(volume.settings.volume == 8)
        app.run { volume.louder.send() }
        app.advance(by: .seconds(1))
        #expect(app.stateStorage.state(Settings.self, key: "volume")?.volume == 9)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aDuplicateKeyIsADiagnosticAndTheSecondStoreStaysInMemory() {
        let persistence = RecordingPersistence()
        persistence.saved["settings"] = Settings(volume: 1)
        let app = TestApp(root: TwoCounters(log: log)) { app in
            app.context.statePersistence = persistence
        }
        let root = app.root(as: TwoCounters.self)!
        #expect(app.diagnostics.map(\.code) == [.duplicateStateKey])
        #expect(app.diagnostics.first?.message.contains("twoCounters.second.settings") == true)
        #expect(app.diagnostics.first?.message.contains("twoCounters.first.settings") == true)
        #expect(persistence.restores == ["settings"])
        #expect(root.first.settings.volume == 1)
        #expect(root.second.settings.volume == 5)
        root.second.settings.volume = 2
        #expect(persistence.changes.isEmpty)
        root.first.settings.volume = 3
        #expect(persistence.changes == ["settings=Settings(volume: 3)"])
    }

    @Test func aDestroyedStoreGivesItsKeyBack() {
        let persistence = RecordingPersistence()
        let first = TestApp(root: VolumeApp(log: log)) { app in
            app.context.statePersistence = persistence
        }
        let volume = first.root(as: VolumeApp.self)!.volume
        first.tree.destroy()
        volume.settings.volume = 1
        #expect(persistence.changes.isEmpty)
    }
}

/// Hosts ``PersistedStoreTests/Volume`` (a root's label is its type's).
struct VolumeApp: Component {
    let volume: PersistedStoreTests.Volume
    init(log: StoreLog) { volume = PersistedStoreTests.Volume(log: log) }
    var observers: Void { None }
}

extension PersistedStoreTests.Volume {
    var observers: Void {
        log.notes.append("observers read \(settings.volume)")
        louder += { settings.volume += 1 }
        twice += {
            settings.volume += 1
            settings.volume += 1
        }
    }
}
