/// A component that wires nothing itself: its emitters, stores and children
/// are observed by others (its parent, a service, a test), so it needs no
/// `observers` of its own.
///
/// ```swift
/// struct AvatarComponent: PassiveComponent {
///     let tapped = SignalEmitter()
/// }
/// ```
///
/// Conforming to `PassiveComponent` instead of ``Component`` is the way to
/// leave `observers` out. ``Component`` itself keeps `observers` required
/// on purpose: Swift gives no "nearly matches" warning for a protocol
/// requirement that has a default, so with a default on every component a
/// misspelt `var observer: Void { ... }` would compile and its observers
/// would silently never run. Here the conformance says "nothing to wire"
/// out loud, and a plain ``Component`` with a misspelt property is still a
/// compile error.
///
/// A passive component may still declare `observers` later: its own
/// declaration replaces the empty default, so it can grow into a wired
/// component without changing its conformance.
public protocol PassiveComponent: Component {}

extension PassiveComponent {
    /// The empty observer list every passive component starts with: binding
    /// calls it and it registers nothing.
    public var observers: Void { None }
}
