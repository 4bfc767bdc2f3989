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

    /// The entries in the order of their first read. Searched in order:
    /// an app reads tens of settings, and a `Set<String>` would cost every
    /// app's startup a search of the runtime's conformance records for
    /// `String: Hashable` (docs/footprint.md).
    private struct State {
        var order: [Entry] = []
    }

    private let state = Mutex(State())

    /// Records a read of `key` as `type` that gave `value` (the first read
    /// of a key only).
    package func record(key: String, type: AppConfiguration.ValueType, value: AppConfiguration.Value?) {
        state.withLock { state in
            guard !state.order.contains(where: { $0.key == key }) else { return }
            state.order.append(Entry(key: key, type: type, value: value))
        }
    }

    /// Every key read so far, in the order of its first read.
    package var entries: [Entry] {
        state.withLock { $0.order }
    }
}
