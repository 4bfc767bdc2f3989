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
    public static func == <Root, Value>(route: Route, keyPath: KeyPath<Root, Value>) -> Bool {
        RouteKey(keyPath).matches(route)
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
struct RouteKey: Sendable, CustomStringConvertible {
    let rootType: ObjectIdentifier
    let rootName: String
    let valueType: ObjectIdentifier
    let isSelf: Bool
    /// The byte offset of the stored property; `nil` when the key path is
    /// not a stored-property path (a computed property, an optional chain).
    let offset: Int?
    let description: String

    init<Root, Value>(_ keyPath: KeyPath<Root, Value>) {
        rootType = ObjectIdentifier(Root.self)
        rootName = "\(Root.self)"
        valueType = ObjectIdentifier(Value.self)
        isSelf = keyPath == (\Root.self as AnyKeyPath)
        offset = isSelf ? 0 : MemoryLayout<Root>.offset(of: keyPath)
        description = "\(keyPath)"
    }

    func matches(_ route: Route) -> Bool {
        rootType == route.rootType
            && valueType == route.valueType
            && (isSelf ? route.isSelf : (!route.isSelf && offset == route.offset))
    }
}
