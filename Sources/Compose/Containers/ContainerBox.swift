/// What the container boxes share: the container's node owns them and
/// their `didCreate`/`didDestroy` emitters, and they drive which children
/// the node has (as its ``NodeBehavior``).
@MainActor
@usableFromInline
class ContainerBox<Event>: BoundObject {
    let didCreate = Emitter<Event>()
    let didDestroy = Emitter<Event>()

    nonisolated override init() {
        super.init()
    }

    /// The container's node, once bound.
    var container: ComponentNode? { owner }

    override func claim(by node: ComponentNode) {
        super.claim(by: node)
        guard owner === node else { return }
        node.adopt(didCreate)
        node.adopt(didDestroy)
    }

    override func didBindChildren(of node: ComponentNode) {
        guard owner === node, let behavior = self as? any NodeBehavior else { return }
        node.behavior = behavior
    }

    /// Takes a child instance out of the tree: deactivates it (releasing
    /// the focus if it is inside), calls `forget` so the box no longer
    /// holds it, removes and destroys it (every observer in its subtree is
    /// cancelled). The caller then sends `didDestroy` and refreshes the
    /// focus.
    func destroyChild(_ node: ComponentNode, forget: () -> Void) {
        if let tree = container?.tree, node.isActive {
            if let focused = tree.focusedNode, focused === node || focused.isDescendant(of: node) {
                tree.releaseFocus()
            }
            tree.deactivate(node)
        }
        forget()
        container?.removeChild(node)
        node.destroy()
    }

    func report(_ code: Diagnostic.Code, _ message: String) {
        Diagnostics.report(Diagnostic(code, message, path: container?.path), in: container)
    }
}
