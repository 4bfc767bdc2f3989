/// A struct in the component tree: it holds emitters, stores and child
/// components, and declares how they are wired in ``observers``.
///
/// ```swift
/// struct AuthComponent: Component {
///     let logIn = SignalEmitter()
/// }
///
/// extension AuthComponent {
///     var observers: Void {
///         logIn += { print("Log In tapped.") }
///     }
/// }
/// ```
///
/// Binding runs `observers` exactly once per bound instance, after the
/// children are bound. Never read `observers` yourself. Every component also
/// gets lifecycle emitters (``didAppear``, ``didDisappear``,
/// ``didEnterFocus``, ``didLeaveFocus``) without storing anything.
@MainActor
public protocol Component {
    /// Registers the component's observers. Use ``None`` when there are
    /// none, or conform to ``PassiveComponent``, which supplies that default.
    var observers: Void { get }
}

/// The empty observer list: `var observers: Void { None }`.
public let None: Void = ()
