import Synchronization

/// The keys an app has read through its configuration, in the order of
/// their first read: what `--help` lists, and how a command-line flag that
/// nothing reads is found out.
///
/// Reads come from the loop's thread (``AppConfiguration``'s methods) and,
/// through ComposeConfiguration's swift-configuration reader, from any
/// thread.
package final class ConfigAccessLog: Sendable {
    /// One key read.
    package struct Entry: Sendable {
        /// The key (`http.port`).
        package let key: String
        /// The type it was read as (the first time).
        package let type: AppConfiguration.ValueType
        /// What the first read returned: a default when only the app's
        /// defaults are consulted (as `--help` does), `nil` for none.
        package let value: AppConfiguration.Value?
    }

    private struct State {
        var order: [Entry] = []
        var seen: Set<String> = []
    }

    private let state = Mutex(State())

    /// Records a read of `key` as `type` that gave `value` (the first read
    /// of a key only).
    package func record(key: String, type: AppConfiguration.ValueType, value: AppConfiguration.Value?) {
        state.withLock { state in
            guard state.seen.insert(key).inserted else { return }
            state.order.append(Entry(key: key, type: type, value: value))
        }
    }

    /// Every key read so far, in the order of its first read.
    package var entries: [Entry] {
        state.withLock { $0.order }
    }

    /// Whether `key` has been read.
    func hasRead(_ key: String) -> Bool {
        state.withLock { $0.seen.contains(key) }
    }
}
