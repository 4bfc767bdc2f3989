import ComposeApp
import ComposePersistence

extension TestApp {
    /// The state persistence of an app whose configuration has none: JSON
    /// with the default timing, so that persisted stores work in every test.
    static var defaultStatePersistence: StatePersistenceFactory { .json() }

    /// Installs the app's state persistence (its configuration's, or
    /// `.json()` when it has none) on ``stateStorage``.
    func installStatePersistence() {
        context.statePersistence = statePersistence.make(context, stateStorage)
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
