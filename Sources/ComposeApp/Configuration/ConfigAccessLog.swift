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
        /// The keys read, as ``flat(_:)`` spells them.
        var seen: Set<String> = []
    }

    private let state = Mutex(State())

    func report(_ event: AccessEvent) {
        record(key: event.metadata.key, type: event.metadata.valueType, value: try? event.result.get())
    }

    /// Records a read of `key` as `type` that gave `value`, as ``report(_:)``
    /// does for a reader's (the runtime's own reads, before the app's
    /// reader exists: `AppConfiguration+RuntimeReads.swift`).
    func record(key: AbsoluteConfigKey, type: ConfigType, value: ConfigValue?) {
        state.withLock { state in
            guard state.seen.insert(Self.flat(key.components)).inserted else { return }
            state.order.append(Entry(key: key, type: type, value: value))
        }
    }

    /// Every key read so far, in the order of its first read.
    var entries: [Entry] {
        state.withLock { $0.order }
    }

    /// Whether `components` has been read.
    func hasRead(_ components: [String]) -> Bool {
        state.withLock { $0.seen.contains(Self.flat(components)) }
    }

    /// `components` as one string that no other key spells: each
    /// component preceded by its length in bytes. (A `Set<[String]>` costs
    /// every app's startup a search of the runtime's conformance records
    /// for `[String]: Hashable`, about 250 thousand instructions; `String`'s
    /// is found already. docs/footprint.md.)
    static func flat(_ components: [String]) -> String {
        var text = ""
        for component in components {
            text += String(component.utf8.count)
            text += ":"
            text += component
        }
        return text
    }
}
