/// A persisted state whose shape changes between versions of the app:
/// each save records ``stateVersion`` in the file's envelope, and a state
/// saved with an older version is handed to ``migrate(_:from:)`` as JSON
/// before it is decoded.
///
/// ```swift
/// struct Settings: Equatable, VersionedState {
///     var fontSize = 12          // version 1 called it "size"
///     var theme = "light"        // new in version 2
///
///     static let stateVersion = 2
///
///     static func migrate(_ state: JSONValue, from version: Int) throws -> JSONValue {
///         var state = state
///         if version < 2 {
///             state["fontSize"] = state["size"]
///             state["size"] = nil
///             state["theme"] = "light"
///         }
///         return state
///     }
/// }
/// ```
///
/// A state type that does not conform is version 1 and has no migration.
/// A file whose version is newer than ``stateVersion`` (written by a later
/// version of the app) is moved aside, never overwritten.
public protocol VersionedState: Codable {
    /// The version this type saves as (1 or more).
    static var stateVersion: Int { get }

    /// `state`, saved as version `version` (older than ``stateVersion``),
    /// turned into JSON this version decodes. The default returns it
    /// unchanged (enough when a version only added optional fields).
    ///
    /// - Throws: When it cannot be migrated; the file is then moved aside
    ///   and the default state used.
    static func migrate(_ state: JSONValue, from version: Int) throws -> JSONValue
}

extension VersionedState {
    public static func migrate(_ state: JSONValue, from version: Int) throws -> JSONValue {
        state
    }
}
