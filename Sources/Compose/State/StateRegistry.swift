/// What an app's stores share through its context
/// (``AppContext/stateRegistry``): the keys persisted stores hold, and the
/// values shared by id (``Ref``). Each app has its own, so two apps in one
/// process (two `TestApp`s) never share a key or a value.
@MainActor
final class StateRegistry {
    /// Persisted stores' keys: who holds each, and where it is.
    private var keys: [String: (holder: ObjectIdentifier, path: String)] = [:]
    /// The storage of each shared value, by id.
    private var shared: [String: StateCell] = [:]

    nonisolated init() {}

    /// Gives `key` to `holder`, or returns the path of the store that
    /// already holds it.
    func claimKey(_ key: String, for holder: AnyObject, path: String) -> String? {
        if let existing = keys[key], existing.holder != ObjectIdentifier(holder) {
            return existing.path
        }
        keys[key] = (ObjectIdentifier(holder), path)
        return nil
    }

    /// Takes `key` back from `holder`, if it holds it.
    func releaseKey(_ key: String, for holder: AnyObject) {
        if keys[key]?.holder == ObjectIdentifier(holder) { keys[key] = nil }
    }

    /// The storage of the value shared as `id`: the one already there, or
    /// `candidate`, which becomes it. `nil` when `id` holds a value of
    /// another type (then the second element names that type).
    func sharedCell<Value>(_ id: String, candidate: StoreBox<Value>) -> Result<StoreBox<Value>, TypeMismatch> {
        guard let existing = shared[id] else {
            shared[id] = candidate
            return .success(candidate)
        }
        guard let cell = existing as? StoreBox<Value> else {
            return .failure(TypeMismatch(sharedType: String(describing: existing.stateType)))
        }
        return .success(cell)
    }

    /// A value is shared under an id with another type.
    struct TypeMismatch: Error {
        let sharedType: String
    }
}
