import Configuration
import Synchronization

/// A layer of an app's configuration that a reload replaces whole: the
/// environment, the configuration file. The app's `ConfigReader` keeps the
/// same layer, so every reader made from it (scoped ones included) sees the
/// new values, and `watch` readers are told.
final class ReloadableLayer: ConfigProvider {
    private struct State {
        var snapshot: any ConfigSnapshot
        var watchers: [UInt64: @Sendable () -> Void] = [:]
        var nextWatcher: UInt64 = 0
    }

    private let state: Mutex<State>

    init(_ snapshot: any ConfigSnapshot) {
        state = Mutex(State(snapshot: snapshot))
    }

    /// Puts `snapshot` in place of the current one and tells the watchers.
    func replace(with snapshot: any ConfigSnapshot) {
        let watchers = state.withLock { state in
            state.snapshot = snapshot
            return Array(state.watchers.values)
        }
        for notify in watchers { notify() }
    }

    var providerName: String { snapshot().providerName }

    func snapshot() -> any ConfigSnapshot {
        state.withLock { $0.snapshot }
    }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try snapshot().value(forKey: key, type: type)
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<Result<LookupResult, any Error>>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = watch { [self] in
            continuation.yield(Result { try self.value(forKey: key, type: type) })
        }
        defer {
            unwatch(id)
            continuation.finish()
        }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = watch { [self] in continuation.yield(self.snapshot()) }
        defer {
            unwatch(id)
            continuation.finish()
        }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    /// Registers `notify`, called now and after each replacement.
    private func watch(_ notify: @escaping @Sendable () -> Void) -> UInt64 {
        let id = state.withLock { state in
            let id = state.nextWatcher
            state.nextWatcher += 1
            state.watchers[id] = notify
            return id
        }
        notify()
        return id
    }

    private func unwatch(_ id: UInt64) {
        _ = state.withLock { $0.watchers.removeValue(forKey: id) }
    }
}
