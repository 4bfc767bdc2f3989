public import Compose

extension AppContext {
    /// Where persisted state goes when the app chose no back end of its
    /// own: the bytes that ComposePersistence's JSON coordinator, installed
    /// by the app's first `@Store(persistedAs:)` store, saves and
    /// restores.
    ///
    /// `StartupComponent.main()` offers a ``FileStateStorage`` in the app's
    /// state directory (``StartupConfiguration/stateDirectory``), made on
    /// first use, so an app that persists nothing makes none; a `TestApp`
    /// its in-memory storage. `nil` in a bare context. Setting it replaces
    /// what an app's later stores install on; a back end already installed
    /// (`AppContext.statePersistence`) keeps its own.
    public var stateStorage: (any StateStorage)? {
        get {
            guard let slot = stateStorageStore as? StateStorageSlot else { return nil }
            return slot.storage
        }
        set {
            stateStorageStore = newValue.map { StateStorageSlot(storage: $0) }
        }
    }

    /// Offers the storage `make` makes, on its first use only
    /// (``stateStorage``).
    func offerStateStorage(_ make: @escaping @MainActor () -> any StateStorage) {
        stateStorageStore = StateStorageSlot(make: make)
    }
}

/// A context's state storage, or how to make it.
@MainActor
private final class StateStorageSlot {
    private enum Content {
        case made(any StateStorage)
        case toMake(@MainActor () -> any StateStorage)
    }

    private var content: Content

    init(storage: any StateStorage) {
        content = .made(storage)
    }

    init(make: @escaping @MainActor () -> any StateStorage) {
        content = .toMake(make)
    }

    var storage: any StateStorage {
        switch content {
        case .made(let storage):
            return storage
        case .toMake(let make):
            let storage = make()
            content = .made(storage)
            return storage
        }
    }
}
