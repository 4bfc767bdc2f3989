public import ComposeApp

extension Store where State: Codable {
    /// A store saved under `key`, holding `wrappedValue` until a saved
    /// state is restored or it is changed:
    /// `@Store(persistedAs: "settings") var settings = Settings()`.
    ///
    /// Importing ComposePersistence is the whole opt-in: when the store is
    /// bound in an app whose context has no back end yet
    /// (`AppContext.statePersistence`), it installs
    /// ``ComposeApp/StatePersistenceFactory/json(debounce:maximumWait:)`` with its
    /// defaults on the app's state storage (`AppContext.stateStorage`: JSON
    /// files in the app's state directory, memory in a `TestApp`). An app
    /// that wants other timing, or another back end, names it in its
    /// `StartupConfiguration(statePersistence:)`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The state when nothing was saved under `key`.
    ///   - key: The name the state is saved under; unique in the app.
    public nonisolated init(wrappedValue: State, persistedAs key: String) {
        self.init(wrappedValue: wrappedValue, persistenceKey: key, installBackEnd: DefaultStatePersistence.install)
    }
}

/// The back end a persisted store installs in an app that has none.
enum DefaultStatePersistence {
    /// Installs ``ComposeApp/StatePersistenceFactory/json(debounce:maximumWait:)``
    /// with its defaults on `context`'s state storage, unless the context
    /// has a back end already; `nil` when it has neither (a bare context).
    @MainActor
    static func install(in context: AppContext) -> (any StatePersisting)? {
        if let installed = context.statePersistence { return installed }
        guard let storage = context.stateStorage else { return nil }
        let persistence = StatePersistenceFactory.json().make(context, storage)
        context.statePersistence = persistence
        return persistence
    }
}
