#if canImport(Glibc)
import Glibc
#endif

/// The process groups of one app's children that may still have members:
/// the registry the runtime kills before the app's process ends.
///
/// Every `ChildProcess` is spawned as the leader of a new session and
/// process group (its ID is the child's PID). The group is registered here
/// when the child starts, and stays registered after the leader exits for
/// as long as another member may still be alive (a `sleep &` the child left
/// behind): the group outlives its leader. A group is forgotten as soon as
/// signalling it reports that it has no member left (`ESRCH`).
///
/// One registry belongs to each event loop, that is to the app context
/// that owns the loop (``AppContext/eventLoop``); nothing here is global.
///
/// PID reuse: Linux does not hand out a PID that is still the ID of a
/// process group with members, so signalling a registered group reaches
/// only the app's descendants while any of them lives. Once the group is
/// empty its ID can be reused; the registry drops empty groups when it
/// learns of them (at each spawn, on each signal), which keeps that window
/// short but does not close it.
@MainActor
final class ProcessGroups {
    /// The registered group IDs.
    private(set) var ids: Set<Int32> = []

    /// Registers the group of a child just spawned, after dropping groups
    /// that have emptied since.
    func insert(_ id: Int32) {
        guard id > 0 else { return }
        pruneEmpty()
        ids.insert(id)
    }

    /// Sends `signal` to group `id`.
    ///
    /// - Returns: `0`, or the negative errno of `kill(2)` (`-ESRCH` when the
    ///   group has no member left: it is then forgotten).
    @discardableResult
    func signal(_ id: Int32, _ signal: Int32) -> Int32 {
        guard id > 0 else { return -ESRCH }
        if Glibc.kill(-id, signal) == 0 { return 0 }
        let error = errno
        if error == ESRCH { ids.remove(id) }
        return -error
    }

    /// Whether group `id` still has a member (forgetting it if not).
    func isAlive(_ id: Int32) -> Bool {
        signal(id, 0) != -ESRCH
    }

    /// `SIGKILL`s every registered group and forgets them all: what the
    /// runtime does before the app's process ends, however it ends.
    func killAll() {
        for id in ids {
            _ = Glibc.kill(-id, SIGKILL)
        }
        ids.removeAll()
    }

    private func pruneEmpty() {
        for id in ids where Glibc.kill(-id, 0) == -1 && errno == ESRCH {
            ids.remove(id)
        }
    }
}
