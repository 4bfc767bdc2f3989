/// Base class of the framework's reference boxes stored inside components
/// (emitter storages, routers, containers).
///
/// Binding finds these boxes in a component's stored properties and records
/// the component's node as their owner. The owner is how a copy of a
/// component value finds its node again, and whose destruction cancels every
/// observer of the box.
@MainActor
class BoundObject {
    /// The node of the component that declares this box.
    weak var owner: ComponentNode?

    nonisolated init() {}

    /// Called when binding finds this box in `node`'s value. Subclasses that
    /// need the node (routers, containers) override it and call `super`.
    func claim(by node: ComponentNode) {
        if let current = owner, current !== node, !current.isDescendant(of: node) {
            // Already owned by an unrelated component: the box was shared
            // between two places; the first owner keeps it.
            return
        }
        owner = node
        node.ownedBoxes.append(self)
    }

    /// Called when the owner node is destroyed.
    func ownerWillBeDestroyed() {}
}
