/// How an app persists its `@Store(persistedAs:)` stores: makes the
/// `StatePersisting` installed on the app's context
/// (`AppContext.statePersistence`).
///
/// The runtime hands it the app's state storage (`AppContext.stateStorage`:
/// a ``FileStateStorage`` in the app's state directory); ComposeTesting's
/// `TestApp` hands it an in-memory storage instead, so the same
/// coordinator, with the same timing and migrations, runs in tests
/// without touching the disk.
///
/// ComposePersistence makes one (`.json(...)`): JSON files, debounced
/// saves, versioned envelopes. It lives in a module of its own because
/// JSON coding needs `FoundationEssentials`, which an app that persists
/// nothing should not load. Importing it is the opt-in: the app's first
/// persisted store installs `.json()` with its defaults. Naming a factory
/// here is only for other timing or another back end:
///
/// ```swift
/// import ComposePersistence
///
/// extension AppComponent: StartupComponent {
///     static var configuration: StartupConfiguration {
///         StartupConfiguration(statePersistence: .json(debounce: .seconds(1)))
///     }
/// }
/// ```
public struct StatePersistenceFactory: Sendable {
    /// Makes the coordinator of `context` on `storage`.
    public let make: @MainActor @Sendable (_ context: AppContext, _ storage: any StateStorage) -> any StatePersisting

    /// A factory that calls `make` (it may ignore the storage it is handed
    /// and use a back end of its own).
    public init(_ make: @escaping @MainActor @Sendable (_ context: AppContext, _ storage: any StateStorage) -> any StatePersisting) {
        self.make = make
    }
}
