extension Diagnostic.Code {
    /// Two live stores of one app are persisted under the same key
    /// (`@Store(persistedAs:)`); the second keeps its state in memory only.
    public static let duplicateStateKey = Diagnostic.Code(rawValue: "duplicateStateKey")
    /// A persisted store (`@Store(persistedAs:)`) was bound in a context
    /// with no state persistence (``AppContext/statePersistence`` is `nil`)
    /// and no storage to make one on (a bare `AppContext`; an app and a
    /// `TestApp` have one); it keeps its state in memory only.
    public static let noStatePersistence = Diagnostic.Code(rawValue: "noStatePersistence")
    /// A `@MappedStore` found no ancestor of its source type; it keeps its
    /// initial value.
    public static let mappedStoreSourceNotFound = Diagnostic.Code(rawValue: "mappedStoreSourceNotFound")
    /// A `@Ref` id is already shared with a value of another type; the
    /// `@Ref` keeps a value of its own.
    public static let sharedReferenceTypeMismatch = Diagnostic.Code(rawValue: "sharedReferenceTypeMismatch")
}
