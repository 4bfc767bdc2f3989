import Configuration
import Synchronization

/// The keys an app has read through its configuration, in the order of
/// their first read: what `--help` lists, and how a command-line flag that
/// nothing reads is found out.
final class ConfigAccessLog: AccessReporter {
    /// One key read.
    struct Entry: Sendable {
        /// The key, with its components (`["http", "port"]`).
        let key: AbsoluteConfigKey
        /// The type it was read as (the first time).
        let type: ConfigType
        /// What the first read returned: a default when only the app's
        /// defaults are consulted (as `--help` does), `nil` for none.
        let value: ConfigValue?
    }

    private struct State {
        var order: [Entry] = []
        var seen: Set<[String]> = []
    }

    private let state = Mutex(State())

    func report(_ event: AccessEvent) {
        let key = event.metadata.key
        let value = try? event.result.get()
        state.withLock { state in
            guard state.seen.insert(key.components).inserted else { return }
            state.order.append(Entry(key: key, type: event.metadata.valueType, value: value))
        }
    }

    /// Every key read so far, in the order of its first read.
    var entries: [Entry] {
        state.withLock { $0.order }
    }

    /// Whether `components` has been read.
    func hasRead(_ components: [String]) -> Bool {
        state.withLock { $0.seen.contains(components) }
    }
}
