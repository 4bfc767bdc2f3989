/// Plain counts of what happened in an app that the runtime's metrics and
/// the inspector report (``AppContext/counters``): the supervisors'
/// restarts and the persisted stores' saves.
///
/// Counting is one integer addition: whoever exports the figures (a
/// metrics backend, the inspector) reads them when it wants them, so the
/// code that counts never formats a label or calls a backend.
@MainActor
package final class AppCounters {
    /// Supervised work restarted after it failed.
    package private(set) var restarts = 0
    /// Persisted stores' states written to storage.
    package private(set) var storeSaves = 0
    /// Attempts to save a persisted store's state that failed.
    package private(set) var storeSaveFailures = 0

    package init() {}

    /// Counts one restart (a supervisor restarting a task or a child).
    package func countRestart() {
        restarts &+= 1
    }

    /// Counts one save of a persisted store, or one that failed.
    package func countStoreSave(succeeded: Bool) {
        if succeeded { storeSaves &+= 1 } else { storeSaveFailures &+= 1 }
    }
}
