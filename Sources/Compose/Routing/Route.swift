/// One entry of a router's stack: a stored child component of the router
/// component, or the router component itself (`\Self.self`).
///
/// A route compares equal to the key path that names it, so code can ask
/// where a router is:
///
/// ```swift
/// if router.path == \Self.logIn { ... }
/// ```
public struct Route: Hashable, Sendable, CustomStringConvertible {
    /// The property label of the routed child (`logIn`), or `self` for the
    /// router component itself.
    public let label: String
    /// Whether this is the router component itself (`\Self.self`).
    public let isSelf: Bool
    let rootType: ObjectIdentifier
    let valueType: ObjectIdentifier
    let offset: Int

    init(label: String, isSelf: Bool, rootType: ObjectIdentifier, valueType: ObjectIdentifier, offset: Int) {
        self.label = label
        self.isSelf = isSelf
        self.rootType = rootType
        self.valueType = valueType
        self.offset = offset
    }

    public var description: String {
        isSelf ? "\\Self.self" : "\\Self.\(label)"
    }

    /// Whether `route` is the route `keyPath` names: types and the stored
    /// property's offset compared, no name made (code asks where its router
    /// is on every line it handles).
    public static func == <Root, Value>(route: Route, keyPath: KeyPath<Root, Value>) -> Bool {
        // Types first: most comparisons end there, before the key path's
        // offset is looked up. No `RouteKey`, which would keep the key path
        // (a retain and a release on every comparison).
        guard route.rootType == ObjectIdentifier(Root.self), route.valueType == ObjectIdentifier(Value.self) else { return false }
        let key = RouteKey.parts(of: keyPath)
        return key.isSelf ? route.isSelf : (!route.isSelf && key.offset == route.offset)
    }

    /// Whether `route` is the route `keyPath` names.
    public static func == <Root, Value>(keyPath: KeyPath<Root, Value>, route: Route) -> Bool {
        route == keyPath
    }

    /// Whether `route` is not the route `keyPath` names.
    public static func != <Root, Value>(route: Route, keyPath: KeyPath<Root, Value>) -> Bool {
        !(route == keyPath)
    }
}

/// What a routing key path says, reduced to what resolution needs.
// @unchecked only for `keyPath`: a key path object is immutable once made
// (its components are written when it is instantiated, never after), every
// property here is a `let`, and the key path is only read, to print it.
struct RouteKey: @unchecked Sendable, CustomStringConvertible {
    /// What resolution compares (see ``Parts``).
    let parts: Parts
    var rootType: ObjectIdentifier { parts.rootType }
    var valueType: ObjectIdentifier { parts.valueType }
    var isSelf: Bool { parts.isSelf }
    var offset: Int? { parts.offset }
    /// The key path, printed only for a diagnostic or an unbound route.
    let keyPath: AnyKeyPath
    /// The root's type, named only for a diagnostic.
    let root: any Any.Type

    init<Root, Value>(_ keyPath: KeyPath<Root, Value>) {
        parts = Self.parts(of: keyPath)
        self.keyPath = keyPath
        root = Root.self
    }

    /// What a key path names: its root and value types, and either the
    /// root itself or a stored property's offset.
    struct Parts {
        let rootType: ObjectIdentifier
        let valueType: ObjectIdentifier
        let isSelf: Bool
        /// The byte offset of the stored property; `nil` when the key path
        /// is not a stored-property path (a computed property, an optional
        /// chain).
        let offset: Int?
    }

    static func parts<Root, Value>(of keyPath: KeyPath<Root, Value>) -> Parts {
        let offset = MemoryLayout<Root>.offset(of: keyPath)
        // The identity, `\Root.self`: the only key path of a component (a
        // struct) to a value of its own type at offset 0. (Comparing with
        // `\Root.self` would instantiate that key path at every call.)
        return Parts(
            rootType: ObjectIdentifier(Root.self),
            valueType: ObjectIdentifier(Value.self),
            isSelf: Value.self == Root.self && offset == 0,
            offset: offset
        )
    }

    /// `\Self.reports` or `\Self.self`.
    var description: String { "\(keyPath)" }

    /// The root type's name (`LoginComponent`).
    var rootName: String { "\(root)" }
}
