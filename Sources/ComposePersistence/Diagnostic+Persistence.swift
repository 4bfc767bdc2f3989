public import Compose

extension Diagnostic.Code {
    /// A persisted state could not be read or decoded (a corrupt file, a
    /// version this app cannot read): it was moved aside and the store
    /// kept its default state.
    public static let stateUnreadable = Diagnostic.Code(rawValue: "stateUnreadable")
    /// A persisted state could not be saved (no space left, permission
    /// denied, read-only file system, a state that cannot be encoded): the
    /// previous save is intact, and the save is retried at the next change.
    public static let stateSaveFailed = Diagnostic.Code(rawValue: "stateSaveFailed")
}
