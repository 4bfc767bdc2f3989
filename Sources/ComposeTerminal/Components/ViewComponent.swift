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
public protocol ViewComponent: Component, AppPresenting {
    /// The type of ``view``.
    associatedtype Content: View
    /// What the component shows, computed from its state.
    @ViewBuilder var view: Content { get }
    /// The keys it answers while its view is on the screen, shown by
    /// ``HelpLine`` (none by default).
    ///
    /// An input goes to the first binding that takes it, in this order:
    /// the bindings of the component whose focusable view has the focus
    /// that name that view (`whileFocused:`, ``KeyBinding/input(whileFocused:_:)``);
    /// then the bindings without a focus name of that component and of
    /// its ancestors, innermost first; then those of the other components
    /// on the screen, in drawing order. Left untaken: Tab and Shift+Tab
    /// (and Down and Up) move the focus among the focusable views, a
    /// mouse press focuses the view under it, and Ctrl+C shuts the app
    /// down.
    @KeyBindingBuilder var keyBindings: [KeyBinding] { get }
    /// The terminal modes the app turns on when this component is its
    /// root (``TerminalModes/standard``: the alternate screen, a hidden
    /// cursor, bracketed paste); add ``TerminalModes/mouse`` for clicks.
    static var terminalModes: TerminalModes { get }
}

extension ViewComponent {
    public var keyBindings: [KeyBinding] { [] }
    public static var terminalModes: TerminalModes { .standard }

    /// Shows the app on the terminal: an app whose root is a
    /// `ViewComponent` draws its view there, redrawn after each loop turn
    /// that changed something, or, without a terminal, prints it as lines.
    public static func presentApp(in context: AppContext, root: ComponentNode) -> (any AppPresentation)? {
        TerminalScreen.start(in: context, root: root, modes: terminalModes)
    }
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
