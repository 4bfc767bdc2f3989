public import ComposeApp
import ComposePersistence

/// Persisted state in memory: the back end `TestApp` gives an app's
/// persisted stores, so a test of a persisted store never touches the disk.
/// A test reads what was saved, seeds what a store restores, and makes
/// saves fail.
///
/// ```swift
/// let app = TestApp(SettingsApp.self) { app in
///     try? app.stateStorage.seed(Settings(fontSize: 14), key: "settings")
/// }
/// app.run { app.root(as: SettingsApp.self)?.bigger.send() }
/// app.advance(by: .seconds(1))                  // past the debounce
/// #expect(app.stateStorage.state(Settings.self, key: "settings")?.fontSize == 15)
///
/// app.stateStorage.saveError = LoopError("write", errno: ENOSPC, context: "settings")
/// ```
///
/// To carry state from one `TestApp` to the next (an app restarted), hand
/// the first one's storage to the second in its `setUp`:
/// `TestApp(SettingsApp.self) { $0.stateStorage = first.stateStorage }`.
@MainActor
public final class InMemoryStateStorage: StateStorage {
    /// Something moved aside because it could not be read or decoded.
    public struct MovedAside: Sendable, Hashable {
        /// The key it was saved under.
        public let key: String
        /// What was saved.
        public let bytes: [UInt8]

        /// The record of `bytes`, saved under `key`, moved aside.
        public init(key: String, bytes: [UInt8]) {
            self.key = key
            self.bytes = bytes
        }
    }

    /// What is saved, by key: each an envelope's JSON (see
    /// `StateEnvelope`).
    public var contents: [String: [UInt8]]
    /// What was moved aside, in order.
    public private(set) var movedAside: [MovedAside] = []
    /// The key of every completed save, in order.
    public private(set) var saves: [String] = []
    /// While set, every save throws it and changes nothing (a full disk, a
    /// read-only file system).
    public var saveError: (any Error)?
    /// While set, every load throws it (an unreadable file).
    public var loadError: (any Error)?

    /// Storage holding `contents`.
    public init(contents: [String: [UInt8]] = [:]) {
        self.contents = contents
    }

    /// `memory:<key>`.
    public func location(of key: String) -> String {
        "memory:\(key)"
    }

    public func load(key: String) throws -> [UInt8]? {
        if let loadError { throw loadError }
        return contents[key]
    }

    public func save(_ bytes: [UInt8], key: String) throws {
        if let saveError { throw saveError }
        contents[key] = bytes
        saves.append(key)
    }

    public func moveAside(key: String) throws -> String {
        guard let bytes = contents.removeValue(forKey: key) else { return "nowhere (nothing was saved)" }
        movedAside.append(MovedAside(key: key, bytes: bytes))
        return "memory:\(key).corrupt-\(movedAside.count)"
    }

    // MARK: Reading and seeding

    /// The state saved under `key`, decoded (and migrated) as a store
    /// restores it; `nil` when nothing is saved or it does not decode.
    public func state<State: Decodable>(_ type: State.Type, key: String) -> State? {
        contents[key].flatMap { try? StateEnvelope.decode(type, from: $0) }
    }

    /// The JSON saved under `key`, as text.
    public func json(key: String) -> String? {
        contents[key].map { String(decoding: $0, as: UTF8.self) }
    }

    /// Saves `state` under `key` as a save would, for a store to restore.
    ///
    /// - Parameters:
    ///   - state: The state to save.
    ///   - key: The store's key, as in `@Store(persistedAs: key)`.
    ///   - version: The version to record (an older one to test a
    ///     migration); `State`'s by default.
    /// - Throws: When `state` cannot be encoded.
    public func seed<State: Encodable>(_ state: State, key: String, version: Int? = nil) throws {
        contents[key] = try StateEnvelope.encode(state, version: version)
    }

    /// Puts `json` under `key` as it is: an envelope written by hand, or a
    /// corrupt file.
    public func seed(json: String, key: String) {
        contents[key] = Array(json.utf8)
    }
}
