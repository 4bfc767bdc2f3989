/// What a persisted store (`@Store(persistedAs:)`) keeps besides its state:
/// its key, and, once bound in an app, the app's ``StatePersisting`` back
/// end.
///
/// Binding claims the key in the app (``StateRegistry``): a key already
/// held by another live store is a ``Diagnostic/Code/duplicateStateKey``
/// diagnostic, and this store then lives in memory only. The back end is
/// the app's (``AppContext/statePersistence``); when it has none yet, the
/// store installs the one its initializer brought (ComposePersistence's
/// JSON files, on the storage the runtime or `TestApp` offers). Where
/// there is none either (a context with no storage) the store lives in
/// memory, and says so with a ``Diagnostic/Code/noStatePersistence``
/// diagnostic.
@MainActor
@usableFromInline
final class StorePersistence<State> {
    let key: String
    /// The back end's calls, made where `State` is known to be `Codable`.
    private let restoreState: @MainActor (any StatePersisting, String) -> State?
    private let saveState: @MainActor (any StatePersisting, State, String) -> Void
    /// Makes and installs the app's back end when it has none.
    private let installBackEnd: @MainActor @Sendable (AppContext) -> (any StatePersisting)?
    /// The back end, while the store holds its key in a bound app.
    private var backEnd: (any StatePersisting)?
    /// The registry holding the key, while the store holds it.
    private weak var registry: StateRegistry?

    @usableFromInline
    nonisolated init(key: String, installBackEnd: @escaping @MainActor @Sendable (AppContext) -> (any StatePersisting)?) where State: Codable {
        self.key = key
        self.installBackEnd = installBackEnd
        restoreState = { backEnd, key in backEnd.restore(State.self, key: key) }
        saveState = { backEnd, state, key in backEnd.stateDidChange(state, key: key) }
    }

    /// Claims the key in `node`'s app; `true` when the store is now
    /// persisted there (then ``restore()`` reads its saved state).
    ///
    /// - Parameter path: The store's path, for the diagnostic.
    func attach(in node: ComponentNode, path: String) -> Bool {
        guard let context = node.context else { return false }
        let registry = context.stateRegistry
        if let holder = registry.claimKey(key, for: self, path: path) {
            Diagnostics.report(Diagnostic(
                .duplicateStateKey,
                "\(path) is persisted as \"\(key)\", which \(holder) already uses; keys must be unique in an app. \(path) keeps its state in memory only: give it another key, @Store(persistedAs: \"…\").",
                path: node.path
            ), in: node)
            return false
        }
        self.registry = registry
        backEnd = context.statePersistence ?? installBackEnd(context)
        if backEnd == nil {
            Diagnostics.report(Diagnostic(
                .noStatePersistence,
                "\(path) is persisted as \"\(key)\", but its context has neither state persistence nor a state storage to save to, so nothing is saved or restored. An app (StartupComponent.main()) and a TestApp have one; a bare AppContext needs AppContext.statePersistence set.",
                path: node.path
            ), in: node)
        }
        return backEnd != nil
    }

    /// Whether the store is saved: it holds its key in an app that has a
    /// back end.
    var isAttached: Bool { backEnd != nil }

    /// The state the back end saved under the key, if any.
    func restore() -> State? {
        guard let backEnd else { return nil }
        return restoreState(backEnd, key)
    }

    /// Tells the back end about a change the store is sending.
    @usableFromInline
    func stateDidChange(_ state: State) {
        guard let backEnd else { return }
        saveState(backEnd, state, key)
    }

    /// Gives the key back (the store's component is destroyed): a store
    /// bound later may take it, and this one saves no more.
    func detach() {
        registry?.releaseKey(key, for: self)
        registry = nil
        backEnd = nil
    }
}
