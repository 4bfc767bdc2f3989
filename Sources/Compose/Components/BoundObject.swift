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
        if let current = owner, !current.isDestroyed {
            // Already claimed: by an ancestor that handed it down to this
            // component, or by another component it is shared with. The
            // first (outermost) owner keeps it.
            return
        }
        owner = node
        node.ownedBoxes.append(self)
    }

    /// Called when the owner node is destroyed.
    func ownerWillBeDestroyed() {}
}
