/// The view of a component, inside another's: what a
/// ``ViewComponent``'s ``ViewComponent/view`` shows for a child.
///
/// ```swift
/// struct AppComponent: Component {
///     let header = HeaderComponent()
///     let notes = NotesComponent()
///     var observers: Void { None }
/// }
///
/// extension AppComponent: ViewComponent {
///     var view: some View {
///         VStack {
///             ComponentView(header)
///             ComponentView(notes).border(title: "Notes")
///         }
///     }
/// }
/// ```
///
/// What it shows for a component:
/// - a ``ViewComponent``: its ``ViewComponent/view``;
/// - a `LazyComponent` or `DynamicComponent`: the view of its component
///   while one exists, nothing otherwise;
/// - a `RouterComponent` that is not a ``ViewComponent``: its top
///   screen (a ``RouterView`` of its router);
/// - any other: nothing.
///
/// The views drawn inside belong to the component's node: the focusable
/// ones name it in their ``FocusRegion``, and the canvas records the
/// component's ``ComponentRegion``. The node is found from the value (a
/// component that stores an emitter or another box of its own is always
/// found; one that stores none, among the children of the component
/// being drawn by its type); a value that belongs to no bound tree is
/// still drawn, for no node.
public struct ComponentView: PrimitiveView {
    private let value: (any Component)?
    private let givenNode: ComponentNode?

    /// The view of `component` (a stored child component, usually).
    public init(_ component: some Component) {
        self.value = component
        self.givenNode = nil
    }

    /// The view of the component bound at `node` (the runtime shows the
    /// root's this way).
    public init(node: ComponentNode) {
        self.value = node.componentValue
        self.givenNode = node
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        guard let value, !proposal.isTooDeep else { return .zero }
        let node = givenNode ?? value.boundNode
        var offer = proposal.offering(width: proposal.width, height: proposal.height, axis: proposal.axis)
        if let node {
            let id = ObjectIdentifier(node)
            if offer.components.contains(id) { return .zero }
            offer.components.append(id)
        }
        return Self.content(of: value, node: node).sizeThatFits(offer)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        guard let value else { return }
        let node = givenNode ?? value.boundNode ?? Self.child(of: canvas.component, typed: type(of: value))
        if let holder = value as? any InstanceHolding {
            // A lazy or dynamic component: its instance's view, for the
            // instance's node.
            guard let instance = holder.instance else { return }
            let instanceNode = node?.activeChildren.first
            canvas.drawComponent(instanceNode, content: Self.content(of: instance, node: instanceNode), in: rect)
            return
        }
        canvas.drawComponent(node, content: Self.content(of: value, node: node), in: rect)
    }

    /// What `value` shows (see the type's documentation).
    static func content(of value: any Component, node: ComponentNode?) -> any View {
        if let viewComponent = value as? any ViewComponent { return viewComponent.view }
        if let holder = value as? any InstanceHolding {
            guard let instance = holder.instance else { return EmptyView() }
            return content(of: instance, node: node?.activeChildren.first)
        }
        if let routing = value as? any RouterComponent { return RouterView(routing.router) }
        return EmptyView()
    }

    /// The one child of `parent` of type `type`, if exactly one.
    private static func child(of parent: ComponentNode?, typed type: any Component.Type) -> ComponentNode? {
        guard let parent else { return nil }
        let matches = parent.children.filter { $0.componentType == type }
        return matches.count == 1 ? matches[0] : nil
    }
}

/// `LazyComponent` and `DynamicComponent`: a slot that holds at most one
/// component.
@MainActor
protocol InstanceHolding {
    var instance: (any Component)? { get }
}

extension LazyComponent: InstanceHolding {
    var instance: (any Component)? { component }
}

extension DynamicComponent: InstanceHolding {
    var instance: (any Component)? { component }
}
