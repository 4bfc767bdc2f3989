import Synchronization

/// The layers of an app's configuration, the highest first, and the ones a
/// reload replaces (the environment and the file).
///
/// Readable from any thread (ComposeConfiguration's swift-configuration
/// reader reads here); a reload replaces the environment and the file
/// together, so no read sees one new and the other old, and then tells
/// the watchers.
package final class ConfigLayers: Sendable {
    private struct State {
        var environment: EnvironmentLayer
        var file: ValuesLayer?
        var watchers: [UInt64: @Sendable () -> Void] = [:]
        var nextWatcher: UInt64 = 0
    }

    /// A test's overrides and the command line: never reloaded.
    private let above: [any ConfigLayer]
    private let defaults: ValuesLayer
    private let state: Mutex<State>

    init(above: [any ConfigLayer], environment: EnvironmentLayer, defaults: ValuesLayer) {
        self.above = above
        self.defaults = defaults
        state = Mutex(State(environment: environment))
    }

    /// Every layer, the highest first.
    package var all: [any ConfigLayer] {
        let (environment, file) = state.withLock { ($0.environment, $0.file) }
        return above + [environment] + (file.map { [$0] } ?? []) + [defaults]
    }

    /// The layers that can name the configuration file: all but the file,
    /// with `environment` as the environment's.
    func fileFinders(environment: EnvironmentLayer) -> [any ConfigLayer] {
        above + [environment, defaults]
    }

    /// The first value the layers have for `key` as `type`: `nil` when
    /// none has one, or when the first that has one holds something that
    /// does not convert (the search ends there).
    package func lookUp(_ key: String, as type: AppConfiguration.ValueType) -> AppConfiguration.Value? {
        do {
            for layer in above {
                if let value = try layer.value(forKey: key, as: type) { return value }
            }
            let (environment, file) = state.withLock { ($0.environment, $0.file) }
            if let value = try environment.value(forKey: key, as: type) { return value }
            if let value = try file?.value(forKey: key, as: type) { return value }
            return try defaults.value(forKey: key, as: type)
        } catch {
            return nil
        }
    }

    package static func lookUp(_ key: String, as type: AppConfiguration.ValueType, in layers: [any ConfigLayer]) -> AppConfiguration.Value? {
        for layer in layers {
            do {
                if let value = try layer.value(forKey: key, as: type) { return value }
            } catch {
                return nil
            }
        }
        return nil
    }

    /// Puts `environment` and `file` in place together, then tells the
    /// watchers.
    func replace(environment: EnvironmentLayer, file: ValuesLayer?) {
        let watchers = state.withLock { state in
            state.environment = environment
            state.file = file
            return Array(state.watchers.values)
        }
        for notify in watchers { notify() }
    }

    /// Calls `notify` after each reload, until ``unwatch(_:)``.
    ///
    /// - Returns: What ``unwatch(_:)`` takes.
    package func watch(_ notify: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[id] = notify
            return id
        }
    }

    /// Stops the calls of a ``watch(_:)``.
    package func unwatch(_ id: UInt64) {
        _ = state.withLock { $0.watchers.removeValue(forKey: id) }
    }
}
