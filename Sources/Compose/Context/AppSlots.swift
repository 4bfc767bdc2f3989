/// Values an app keeps by type: the slots of its context for services
/// (``AppContext/services``) and configuration
/// (``AppContext/configuration``). One value per type; each app has its
/// own, so two apps in one process (two `TestApp`s) never share one.
///
/// ```swift
/// context.services[Clock.self] = SystemClock()
/// let clock = context.services[Clock.self]
/// ```
///
/// The state layer builds on these slots (registration with a lifecycle,
/// overriding per test, typed configuration).
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
