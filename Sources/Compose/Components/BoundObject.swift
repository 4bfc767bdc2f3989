/// Base class of the framework's reference types stored inside components
/// (``Router``, emitter storages, containers). It has no public members and
/// cannot be subclassed outside Compose.
///
/// Binding finds these boxes in a component's stored properties and records
/// the component's node as their owner. The owner is how a copy of a
/// component value finds its node again, and whose destruction cancels every
/// observer of the box.
@MainActor
public class BoundObject {
    /// The node of the component that declares this box.
    // unowned(unsafe) rather than weak: a weak reference would give every
    // node a side table and slow down every retain of it. Safe because the
    // owner clears it before it goes away (ComponentNode.tearDown(), which
    // its deinit runs too), and only boxes it can find get an owner: those
    // its value declares, or ones listed in its `adoptedBoxes` (see
    // `claim(by:declared:)`).
    //
    // Unchecked exclusivity: every access is a single load or store of the
    // reference, never held across a call, so accesses cannot overlap;
    // checked, binding paid a runtime call per read (callgrind).
    #if DEBUG
    @usableFromInline
    unowned(unsafe) var owner: ComponentNode?
    #else
    @usableFromInline @exclusivity(unchecked)
    unowned(unsafe) var owner: ComponentNode?
    #endif

    /// The node whose rule applies to an emitter derived from one of its
    /// emitters (`map`, `filter`, ...): such an emitter is not owned by the
    /// node (nothing keeps it), so this one reference stays weak.
    // Unchecked: a single weak load or store per access, as `owner`.
    #if DEBUG
    weak var inheritedOwner: ComponentNode?
    #else
    @exclusivity(unchecked)
    weak var inheritedOwner: ComponentNode?
    #endif

    /// The owner, or the node a derived emitter inherited.
    @usableFromInline
    var ruleOwner: ComponentNode? { owner ?? inheritedOwner }

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

    /// Called after the owner's child components are bound, before its
    /// `observers` runs (routers resolve their start route here).
    func didBindChildren(of node: ComponentNode) {}

    /// Turns recording of this box's sends as ``AppEvent``s on or off
    /// (emitter storages record; other boxes have nothing to record).
    func setTracing(_ isOn: Bool) {}

    /// Called when the owner node is destroyed.
    func ownerWillBeDestroyed() {}
}
