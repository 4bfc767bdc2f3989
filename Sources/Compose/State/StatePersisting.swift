/// Where `@Store(persistedAs:)` stores restore from and save to: the seam
/// between the state layer (`Store`, in this module) and a persistence
/// back end (ComposeApp's JSON files in the app's state directory,
/// ComposeTesting's in-memory one).
///
/// An app has at most one, on its context
/// (``AppContext/statePersistence``). A store calls ``restore(_:key:)``
/// once, when its component is bound (before `observers` run), and
/// ``stateDidChange(_:key:)`` after every change it sends; the
/// implementation decides when to write (debounced on the app's clock,
/// flushed at graceful shutdown) and reports failures as diagnostics. Both
/// calls never throw: a state that cannot be restored is `nil` (the store
/// keeps its default), a save that fails is retried on the next change.
@MainActor
public protocol StatePersisting: AnyObject {
    /// The state saved under `key`, or `nil` when there is none or it could
    /// not be read (then the implementation has reported why).
    func restore<State: Codable>(_ type: State.Type, key: String) -> State?

    /// The state under `key` is now `state`: save it (not necessarily at
    /// once).
    func stateDidChange<State: Codable>(_ state: State, key: String)
}
