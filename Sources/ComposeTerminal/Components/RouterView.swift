/// The view of a router's top screen: the component on top of its stack,
/// drawn as ``ComponentView`` draws it. After the router pushes, pops or
/// replaces, the next frame shows the new top.
///
/// ```swift
/// extension AppComponent: ViewComponent {
///     var view: some View {
///         VStack {
///             RouterView(router)
///             Text("tab: switch screen").dim()
///         }
///     }
/// }
/// ```
///
/// While the top route is `\Self.self`, it shows the router component's
/// ``RoutableViewComponent/routableView`` (nothing when it has none). An
/// unbound router shows nothing.
public struct RouterView: PrimitiveView {
    let router: Router

    /// The view of `router`'s top screen.
    public init(_ router: Router) {
        self.router = router
    }

    /// The top node and what it shows.
    private var top: (node: ComponentNode, content: any View)? {
        guard let node = router.topNode, let value = node.componentValue else { return nil }
        if router.path.isSelf {
            guard let routable = value as? any RoutableViewComponent else { return (node, EmptyView()) }
            return (node, routable.routableView)
        }
        return (node, ComponentView.content(of: value, node: node))
    }

    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        guard !proposal.isTooDeep, let top else { return .zero }
        if router.path.isSelf {
            return top.content.sizeThatFits(proposal.offering(width: proposal.width, height: proposal.height, axis: proposal.axis))
        }
        return ComponentView(node: top.node).sizeThatFits(proposal)
    }

    public func draw(in rect: Rect, canvas: inout Canvas) {
        guard let top else { return }
        if router.path.isSelf {
            // The router component's own node is being drawn already (its
            // view holds this RouterView): its routable view belongs to it.
            if canvas.component === top.node {
                canvas.draw(top.content, in: rect)
            } else {
                canvas.drawComponent(top.node, content: top.content, in: rect)
            }
            return
        }
        ComponentView(node: top.node).draw(in: rect, canvas: &canvas)
    }
}
