/// Values an app keeps by type: the slots of its context for configuration
/// (``AppContext/configuration``). One value per type; each app has its
/// own, so two apps in one process (two `TestApp`s) never share one.
/// (Services, which have a lifecycle, live in ``ServiceRegistry``.)
///
/// ```swift
/// context.configuration[Port.self] = Port(7070)
/// let port = context.configuration[Port.self]
/// ```
public struct AppSlots {
    private var values: [ObjectIdentifier: Any] = [:]

    /// An empty set of slots.
    public init() {}

    /// The value kept for `type`, if any; assign `nil` to clear it.
    public subscript<Value>(_ type: Value.Type) -> Value? {
        get { values[ObjectIdentifier(type)] as? Value }
        set { values[ObjectIdentifier(type)] = newValue }
    }

    /// How many values are kept.
    public var count: Int { values.count }
}
