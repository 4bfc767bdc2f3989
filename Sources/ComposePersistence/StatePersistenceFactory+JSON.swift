public import ComposeApp

extension StatePersistenceFactory {
    /// Persisted stores as JSON through ``StatePersistence``: in files of
    /// the app's state directory when the app runs, in memory in a
    /// `TestApp`.
    ///
    /// An app that imports ComposePersistence has it with these defaults
    /// without naming it (its first `@Store(persistedAs:)` store installs
    /// it); naming it changes the timing:
    ///
    /// ```swift
    /// StartupConfiguration(statePersistence: .json(debounce: .seconds(1), maximumWait: .seconds(10)))
    /// ```
    ///
    /// With the defaults, a change is on disk half a second after the state
    /// stops changing, and at most a second after it first changed while it
    /// keeps changing (Redis's `appendfsync everysec` loses at most a
    /// second too); a graceful shutdown saves what is left.
    ///
    /// - Parameters:
    ///   - debounce: How long a state must stay unchanged before it is
    ///     saved.
    ///   - maximumWait: The longest a change waits while the state keeps
    ///     changing (at least `debounce`).
    public static func json(
        debounce: Duration = .milliseconds(500),
        maximumWait: Duration = .seconds(1)
    ) -> StatePersistenceFactory {
        StatePersistenceFactory { context, storage in
            coordinator(on: storage, context: context, debounce: debounce, maximumWait: maximumWait)
        }
    }
}

/// A ``StatePersistence`` on the storage inside an existential (opened by
/// the call).
@MainActor
private func coordinator<Storage: StateStorage>(
    on storage: Storage,
    context: AppContext,
    debounce: Duration,
    maximumWait: Duration
) -> any StatePersisting {
    StatePersistence(storage: storage, context: context, debounce: debounce, maximumWait: maximumWait)
}
