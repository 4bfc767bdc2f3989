import ComposeApp
import Configuration

/// An app's configuration layers as one swift-configuration provider: a
/// lookup gives what ``AppConfiguration``'s own reads give (the highest
/// layer that has the key, converted; `nil` when that one does not
/// convert), and watchers are told after every reload.
struct AppConfigurationProvider: ConfigProvider {
    let layers: ConfigLayers

    var providerName: String { "Compose configuration" }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        Self.lookUp(key, type: type, in: layers.all)
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    func snapshot() -> any ConfigSnapshot {
        Snapshot(layers: layers.all)
    }

    func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<Result<LookupResult, any Error>>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let layers = layers
        let id = layers.watch { continuation.yield(.success(Self.lookUp(key, type: type, in: layers.all))) }
        continuation.yield(.success(Self.lookUp(key, type: type, in: layers.all)))
        defer {
            layers.unwatch(id)
            continuation.finish()
        }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let layers = layers
        let id = layers.watch { continuation.yield(Snapshot(layers: layers.all)) }
        continuation.yield(Snapshot(layers: layers.all))
        defer {
            layers.unwatch(id)
            continuation.finish()
        }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    /// The lookup of `key` as `type` in `layers`.
    static func lookUp(_ key: AbsoluteConfigKey, type: ConfigType, in layers: [any ConfigLayer]) -> LookupResult {
        let encoded = key.components.joined(separator: ".")
        let value = ConfigLayers.lookUp(encoded, as: AppConfiguration.ValueType(type), in: layers)
        return LookupResult(encodedKey: encoded, value: value?.content(as: type).map { ConfigValue($0, isSecret: false) })
    }

    /// The layers at one moment.
    struct Snapshot: ConfigSnapshot {
        let layers: [any ConfigLayer]

        var providerName: String { "Compose configuration" }

        func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
            AppConfigurationProvider.lookUp(key, type: type, in: layers)
        }
    }
}
