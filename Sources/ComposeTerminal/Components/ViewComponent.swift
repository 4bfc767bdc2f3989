/// A component that shows something: its ``view`` is computed from its
/// state each time the screen is drawn.
///
/// ```swift
/// struct CounterComponent: Component {
///     @Store var count = 0
///     let increment = SignalEmitter()
///     var observers: Void { increment += { count += 1 } }
/// }
///
/// extension CounterComponent: ViewComponent {
///     var view: some View {
///         VStack {
///             Text("count: ") + Text("\(count)").bold()
///             ProgressBar(value: Double(count) / 10)
///         }
///     }
/// }
/// ```
///
/// Declare `view` in the extension that declares the conformance (there
/// `@ViewBuilder` is implied), or mark it `@ViewBuilder` yourself.
///
/// A parent shows a child component's view with ``ComponentView`` and the
/// top screen of a router with ``RouterView``; a component that is not a
/// `ViewComponent` shows nothing, except a `RouterComponent`, which
/// shows its top screen, and a `LazyComponent` or `DynamicComponent`,
/// which show their component's view while it exists.
@MainActor
public protocol ViewComponent: Component {
    /// The type of ``view``.
    associatedtype Content: View
    /// What the component shows, computed from its state.
    @ViewBuilder var view: Content { get }
}

/// A router component that can route to itself (`Router(start: \Self.self)`):
/// what it shows while `\Self.self` is its top route is its
/// ``routableView``, around which its ``ViewComponent/view`` usually puts
/// a ``RouterView``.
///
/// ```swift
/// extension ProfileComponent: RoutableViewComponent {
///     var view: some View {
///         RouterView(router).border(title: "Profile")
///     }
///     var routableView: some View {
///         Text("e: edit profile")
///     }
/// }
/// ```
///
/// A ``RouterView`` of a router whose top route is `\Self.self` shows the
/// ``routableView`` (nothing, for a component that is not a
/// `RoutableViewComponent`), never the component's ``ViewComponent/view``,
/// which would contain itself.
@MainActor
public protocol RoutableViewComponent: ViewComponent {
    /// The type of ``routableView``.
    associatedtype RoutableContent: View
    /// What the component shows while it is its router's top route.
    @ViewBuilder var routableView: RoutableContent { get }
}
