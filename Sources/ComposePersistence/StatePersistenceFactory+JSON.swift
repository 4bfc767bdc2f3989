public import ComposeApp

extension StatePersistenceFactory {
    /// Persisted stores as JSON through ``StatePersistence``: in files of
    /// the app's state directory when the app runs, in memory in a
    /// `TestApp`.
    ///
    /// ```swift
    /// StartupConfiguration(statePersistence: .json(debounce: .seconds(1), maximumWait: .seconds(10)))
    /// ```
    ///
    /// - Parameters:
    ///   - debounce: How long a state must stay unchanged before it is
    ///     saved.
    ///   - maximumWait: The longest a change waits while the state keeps
    ///     changing.
    public static func json(
        debounce: Duration = .milliseconds(500),
        maximumWait: Duration = .seconds(5)
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
