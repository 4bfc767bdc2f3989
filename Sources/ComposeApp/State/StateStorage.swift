/// Where persisted state lives, as bytes per key: the back end of a state
/// persistence coordinator (ComposePersistence's `StatePersistence`).
///
/// ``FileStateStorage`` keeps each key in a JSON file of the app's state
/// directory; ComposeTesting's `InMemoryStateStorage` keeps them in memory
/// for tests. Another back end (a database, a key-value service) conforms
/// with the four requirements below; the coordinator does the coding,
/// debouncing and reporting.
///
/// Calls come from the app's main thread (the loop thread) and block it:
/// a back end must be quick for small states.
@MainActor
public protocol StateStorage: AnyObject {
    /// Where the state under `key` is kept, as diagnostics name it (a file's
    /// path, a URL).
    func location(of key: String) -> String

    /// The bytes last saved under `key`, or `nil` when nothing was.
    ///
    /// - Throws: When what is there cannot be read (permissions, I/O); the
    ///   coordinator then moves it aside (``moveAside(key:)``).
    func load(key: String) throws -> [UInt8]?

    /// Replaces what is saved under `key` with `bytes`, all or nothing: when
    /// it throws, what was saved before is intact and ``load(key:)`` still
    /// returns it; when it returns, the new bytes survive a crash or power
    /// loss.
    ///
    /// - Throws: The failure (no space, permission denied, read-only file
    ///   system, ...), naming where it happened.
    func save(_ bytes: [UInt8], key: String) throws

    /// Moves what is saved under `key` out of the way, kept for a person to
    /// inspect (a file renamed with a timestamp), so that ``load(key:)``
    /// returns `nil`; called when it cannot be read or decoded.
    ///
    /// - Returns: Where it went, for the diagnostic.
    /// - Throws: When it cannot be moved.
    func moveAside(key: String) throws -> String
}
