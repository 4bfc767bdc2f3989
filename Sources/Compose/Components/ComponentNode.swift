/// A bound component instance in the tree.
///
/// A node knows its component's type, the property label it is stored under,
/// its parent and children, the observers registered in its scope, and its
/// lifecycle emitters. Copies of a component value lead to the same node
/// (see ``Component/node``); two instances, even of the same type, never do.
///
/// Nodes are created by binding (``ComponentTree/init(_:label:scheduler:logger:diagnostics:)``)
/// and live until their subtree is destroyed.
@MainActor
public final class ComponentNode {
    /// The property label the component is stored under (the root's label is
    /// derived from its type: `AppComponent` is `app`).
    public let label: String
    /// The component's type.
    public let componentType: any Component.Type
    /// The component that stores this one; `nil` for the root.
    public var parent: ComponentNode? { parentNode }
    // unowned(unsafe) rather than weak (see BoundObject.owner): the parent
    // clears it in every child before it goes away (tearDown and deinit).
    // Unchecked exclusivity, here and on the fields below marked so: every
    // access is a single load or store, an append, or a copy that is then
    // iterated; the one callback run inside an access (`removeAll`'s
    // predicate in `retain` and `removeChild`) never reaches this node's
    // fields, so no two accesses overlap. Checked, binding paid about
    // 1,800 instructions per component in runtime calls, a quarter of it.
    @exclusivity(unchecked)
    private unowned(unsafe) var parentNode: ComponentNode?
    /// The child components, in declaration order (for containers, the
    /// instances that exist now).
    public var children: [ComponentNode] {
        behavior?.children(of: self) ?? ownChildren
    }
    /// The children this node keeps itself: its stored child components, a
    /// single-instance container's instance. An `InstanceComponent` keeps
    /// its instances in its box instead (so that removing one is O(1)) and
    /// answers ``children`` through its ``NodeBehavior``.
    @exclusivity(unchecked)
    var ownChildren: [ComponentNode] = []
    /// The tree this node belongs to.
    @exclusivity(unchecked)
    public private(set) weak var tree: ComponentTree?
    /// The app this node belongs to (its tree's context).
    public var context: AppContext? { tree?.context }
    /// Whether the component is part of the active tree.
    @exclusivity(unchecked)
    public internal(set) var isActive = false
    /// Whether the node was destroyed (its observers are all cancelled).
    @exclusivity(unchecked)
    public private(set) var isDestroyed = false

    /// Where the bound value lives: inside the one stored copy of the value
    /// that was bound (the root's, or a container instance's), which
    /// `storage` keeps alive. Children point into their parent's value, so
    /// binding copies nothing and a tree holds one copy of its values.
    let address: UnsafeRawPointer
    private let storage: AnyObject
    /// Reference boxes declared by this component (emitter storages, ...).
    var ownedBoxes = BoxList()
    /// Runtime resources that follow this component's lifecycle.
    @exclusivity(unchecked)
    var attachments: [any ComponentAttachment] = []
    /// Routing and containers plug in here: which children are active and
    /// which one carries focus. `nil` means "all children, no focus".
    var behavior: (any NodeBehavior)?

    @exclusivity(unchecked)
    private var subscriptions: [Subscription] = []
    @exclusivity(unchecked)
    private var compactionThreshold = 32
    var lifecycle = LifecycleEmitters()

    init(label: String, type: any Component.Type, address: UnsafeRawPointer, storage: AnyObject, parent: ComponentNode?, tree: ComponentTree?) {
        self.label = label
        self.address = address
        self.storage = storage
        self.componentType = type
        self.parentNode = parent
        self.tree = tree
    }

    isolated deinit {
        if !isDestroyed { tearDown() }
        for child in children { child.parentNode = nil }
    }

    /// The bound component value (a copy sharing every emitter with the
    /// tree's), if it is a `T`.
    ///
    /// ```swift
    /// let server = tree.root.value(as: ServerComponent.self)
    /// ```
    public func value<T: Component>(as type: T.Type) -> T? {
        guard componentType == T.self else { return nil }
        return address.assumingMemoryBound(to: T.self).pointee
    }

    /// The label path from the root, e.g. `app.auth.logIn`.
    public var path: String {
        guard let parent else { return label }
        return parent.path + "." + label
    }

    /// Whether `ancestor` is a strict ancestor of this node.
    public func isDescendant(of ancestor: ComponentNode) -> Bool {
        var current = parent
        while let node = current {
            if node === ancestor { return true }
            current = node.parent
        }
        return false
    }

    /// The children that are active while this node is active: all of them
    /// for a plain component; routers narrow this to their stack.
    public var activeChildren: [ComponentNode] {
        behavior?.activeChildren(of: self) ?? ownChildren
    }

    /// Whether this node is the deepest focused component of its tree.
    public var isFocused: Bool {
        tree?.focusedNode === self
    }

    /// How many observers are registered in this node's scope.
    public var scopeObserverCount: Int {
        subscriptions.reduce(0) { $0 + ($1.isActive ? 1 : 0) }
    }

    // MARK: Lifecycle emitters

    /// Sent when the component becomes part of the active tree.
    public var didAppear: SignalEmitter { lifecycleEmitter(\.didAppear) }
    /// Sent when the component leaves the active tree.
    public var didDisappear: SignalEmitter { lifecycleEmitter(\.didDisappear) }
    /// Sent when the component becomes the deepest focused one.
    public var didEnterFocus: SignalEmitter { lifecycleEmitter(\.didEnterFocus) }
    /// Sent when the component stops being the deepest focused one.
    public var didLeaveFocus: SignalEmitter { lifecycleEmitter(\.didLeaveFocus) }

    private func lifecycleEmitter(_ key: WritableKeyPath<LifecycleEmitters, SignalEmitter?>) -> SignalEmitter {
        if let existing = lifecycle[keyPath: key] { return existing }
        let created = SignalEmitter()
        // The tree records lifecycle events itself.
        created.storage.exemptFromTracing()
        self.adopt(created)
        lifecycle[keyPath: key] = created
        return created
    }

    /// Sends a lifecycle signal if anyone ever asked for that emitter.
    func sendLifecycle(_ key: KeyPath<LifecycleEmitters, SignalEmitter?>) {
        lifecycle[keyPath: key]?.send()
    }

    // MARK: Scope

    /// Keeps `subscription` so that it is cancelled with this scope.
    @usableFromInline
    func retain(_ subscription: Subscription) {
        if subscriptions.count >= compactionThreshold {
            // Drop tokens of observers that ended on their own (`!+=`,
            // explicit cancel), so a long-lived scope does not grow forever.
            subscriptions.removeAll { !$0.isActive }
            compactionThreshold = Swift.max(32, subscriptions.count * 2)
        }
        // Room for four at once: most scopes get a few observers, and
        // growing from one to two to four would allocate three times.
        if subscriptions.capacity == 0 { subscriptions.reserveCapacity(4) }
        subscriptions.append(subscription)
    }

    /// Cancels every observer registered in this scope.
    func cancelSubscriptions() {
        let cancelled = subscriptions
        subscriptions = []
        for subscription in cancelled { subscription.cancel() }
    }

    /// The child labelled `label`, if any. O(1) for an `InstanceComponent`'s
    /// instances (labelled with their ids), a scan of the children otherwise.
    func child(labelled label: some StringProtocol) -> ComponentNode? {
        if let behavior { return behavior.child(labelled: String(label), of: self) }
        return ownChildren.first { $0.label == label }
    }

    /// Takes `child` out of this node's own children (a container dropping
    /// its instance); it no longer has a parent.
    func removeChild(_ child: ComponentNode) {
        ownChildren.removeAll { $0 === child }
        child.parentNode = nil
    }

    /// Forgets this node's parent: a container that keeps its children
    /// itself (``NodeBehavior/children(of:)``) dropped it.
    func detachFromParent() {
        parentNode = nil
    }

    // MARK: Destruction

    /// Destroys the subtree, children first: cancels every observer
    /// registered in each scope and every observer of each node's emitters.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        for child in children.reversed() { child.destroy() }
        tearDown()
        tree?.nodeDestroyed(self)
    }

    private func tearDown() {
        let attached = attachments
        attachments = []
        for attachment in attached { attachment.componentWillBeDestroyed() }
        cancelSubscriptions()
        let boxes = ownedBoxes
        boxes.forEach { box in
            guard box.owner === self else { return }
            box.ownerWillBeDestroyed()
            box.owner = nil
        }
    }
}

/// The lazily created lifecycle emitters of a node.
struct LifecycleEmitters {
    var didAppear: SignalEmitter?
    var didDisappear: SignalEmitter?
    var didEnterFocus: SignalEmitter?
    var didLeaveFocus: SignalEmitter?
}

/// How routers and containers change which children of a node are active
/// and which one is focused.
@MainActor
protocol NodeBehavior: AnyObject {
    /// The node's children when the behavior keeps them itself, or `nil`
    /// for the node's own (``ComponentNode/ownChildren``).
    func children(of node: ComponentNode) -> [ComponentNode]?
    /// The child of `node` labelled `label`.
    func child(labelled label: String, of node: ComponentNode) -> ComponentNode?
    func activeChildren(of node: ComponentNode) -> [ComponentNode]
    func focusedChild(of node: ComponentNode) -> ComponentNode?
    /// Why `node` cannot be routed to right now (a dynamic component that
    /// was not created), or `nil` when it can.
    func routingRefusal(of node: ComponentNode) -> String?
    /// Called after `node` appeared, before its children are activated
    /// (a lazy component creates its instance here).
    func nodeDidActivate(_ node: ComponentNode)
    /// Called after `node` disappeared (a lazy component destroys its
    /// instance here).
    func nodeDidDeactivate(_ node: ComponentNode)
}

extension NodeBehavior {
    func children(of node: ComponentNode) -> [ComponentNode]? { nil }
    func child(labelled label: String, of node: ComponentNode) -> ComponentNode? {
        node.children.first { $0.label == label }
    }
    func routingRefusal(of node: ComponentNode) -> String? { nil }
    func nodeDidActivate(_ node: ComponentNode) {}
    func nodeDidDeactivate(_ node: ComponentNode) {}
}

extension ComponentNode: @MainActor CustomStringConvertible {
    public var description: String {
        "\(path) (\(componentType))"
    }
}

extension ComponentNode {
    /// Deactivates and destroys this subtree, as a container does when it
    /// drops a component. For tests of cleanup; apps use `LazyComponent`,
    /// `DynamicComponent` and `InstanceComponent`.
    @_spi(Testing)
    public func destroyForTesting() {
        tree?.deactivate(self)
        tree?.refreshFocus()
        destroy()
    }
}
