import ComposeApp
import ComposePersistence

extension TestApp {
    /// Offers ``stateStorage`` to the app's persisted stores, as the
    /// runtime offers the state directory: the first one installs the
    /// JSON back end on it, unless the app's configuration names a back
    /// end, installed now. A storage replaced once a back end is in place
    /// gets a new one, on the new storage.
    func installStatePersistence() {
        context.stateStorage = stateStorage
        if let factory = statePersistence ?? (context.statePersistence == nil ? nil : .json()) {
            context.statePersistence = factory.make(context, stateStorage)
        }
    }

    /// Saves every unsaved persisted state now, as a shutdown does. Not
    /// reentrant, as ``run(_:)``.
    public func flushState() {
        runAsApp("TestApp.flushState()") { (context.statePersistence as? any FlushableStatePersistence)?.flush() }
    }
}

/// A coordinator whose unsaved states can be saved at once.
@MainActor
protocol FlushableStatePersistence {
    func flush()
}

extension StatePersistence: FlushableStatePersistence {}
