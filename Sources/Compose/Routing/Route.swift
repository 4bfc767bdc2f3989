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

    /// Whether `route` is the route `keyPath` names.
    ///
    /// Compares types and the stored property's offset: no name is made
    /// (printing a key path costs tens of thousands of instructions, and
    /// code asks where its router is on every line it handles).
    public static func == <Root, Value>(route: Route, keyPath: KeyPath<Root, Value>) -> Bool {
        guard route.rootType == ObjectIdentifier(Root.self), route.valueType == ObjectIdentifier(Value.self) else { return false }
        let offset = MemoryLayout<Root>.offset(of: keyPath)
        return RouteKey.isSelf(keyPath, offset: offset) ? route.isSelf : !route.isSelf && offset == route.offset
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
    let rootType: ObjectIdentifier
    let valueType: ObjectIdentifier
    let isSelf: Bool
    /// The byte offset of the stored property; `nil` when the key path is
    /// not a stored-property path (a computed property, an optional chain).
    let offset: Int?
    /// The key path, printed only for a diagnostic or an unbound route.
    let keyPath: AnyKeyPath
    /// The root's type, named only for a diagnostic.
    let root: any Any.Type

    init<Root, Value>(_ keyPath: KeyPath<Root, Value>) {
        rootType = ObjectIdentifier(Root.self)
        valueType = ObjectIdentifier(Value.self)
        offset = MemoryLayout<Root>.offset(of: keyPath)
        isSelf = Self.isSelf(keyPath, offset: offset)
        self.keyPath = keyPath
        root = Root.self
    }

    /// `\Self.reports` or `\Self.self`.
    var description: String { "\(keyPath)" }

    /// The root type's name (`LoginComponent`).
    var rootName: String { "\(root)" }

    /// Whether `keyPath` is `\Root.self`, the identity: the only key path
    /// of a component (a struct) to a value of its own type at offset 0.
    /// (Comparing with `\Root.self` would instantiate that key path at
    /// every call.)
    static func isSelf<Root, Value>(_ keyPath: KeyPath<Root, Value>, offset: Int?) -> Bool {
        Value.self == Root.self && offset == 0
    }

    func matches(_ route: Route) -> Bool {
        rootType == route.rootType
            && valueType == route.valueType
            && (isSelf ? route.isSelf : (!route.isSelf && offset == route.offset))
    }
}
