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
    // Unchecked exclusivity in release builds, here and on the fields
    // below marked so: every access is a single load or store, an append,
    // or a copy that is then iterated, and no access runs code that could
    // reach this node (no element is released inside one: see `retain`),
    // so no two accesses overlap. Checked, binding paid about 1,800
    // instructions per component in runtime calls, a quarter of it. Debug
    // builds (and so `make test-asan`) keep the dynamic checks, which
    // would stop an overlap with "simultaneous accesses" (docs/unsafe.md).
    #if DEBUG
    private unowned(unsafe) var parentNode: ComponentNode?
    #else
    @exclusivity(unchecked)
    private unowned(unsafe) var parentNode: ComponentNode?
    #endif
    /// The child components, in declaration order (for containers, the
    /// instances that exist now).
    public var children: [ComponentNode] {
        behavior?.children(of: self) ?? ownChildren
    }
    /// The children this node keeps itself: its stored child components, a
    /// single-instance container's instance. An `InstanceComponent` keeps
    /// its instances in its box instead (so that removing one is O(1)) and
    /// answers ``children`` through its ``NodeBehavior``.
    #if DEBUG
    var ownChildren: [ComponentNode] = []
    #else
    @exclusivity(unchecked)
    var ownChildren: [ComponentNode] = []
    #endif
    /// The tree this node belongs to.
    public var tree: ComponentTree? { treeReference }
    #if DEBUG
    private weak var treeReference: ComponentTree?
    #else
    @exclusivity(unchecked)
    private weak var treeReference: ComponentTree?
    #endif
    /// The app this node belongs to (its tree's context).
    public var context: AppContext? { tree?.context }
    /// Whether the component is part of the active tree.
    public internal(set) var isActive: Bool {
        get { activeFlag }
        set { activeFlag = newValue }
    }
    #if DEBUG
    private var activeFlag = false
    #else
    @exclusivity(unchecked)
    private var activeFlag = false
    #endif
    /// Whether the node was destroyed (its observers are all cancelled).
    public var isDestroyed: Bool { destroyedFlag }
    #if DEBUG
    private var destroyedFlag = false
    #else
    @exclusivity(unchecked)
    private var destroyedFlag = false
    #endif

    /// Where the bound value lives: inside the one stored copy of the value
    /// that was bound (the root's, or a container instance's), which
    /// `storage` keeps alive. Children point into their parent's value, so
    /// binding copies nothing and a tree holds one copy of its values.
    let address: UnsafeRawPointer
    private let storage: AnyObject
    /// Reference boxes declared by this component (emitter storages, ...).
    var ownedBoxes = BoxList()
    /// Runtime resources that follow this component's lifecycle.
    #if DEBUG
    var attachments: [any ComponentAttachment] = []
    #else
    @exclusivity(unchecked)
    var attachments: [any ComponentAttachment] = []
    #endif
    /// Routing and containers plug in here: which children are active and
    /// which one carries focus. `nil` means "all children, no focus".
    var behavior: (any NodeBehavior)?

    #if DEBUG
    private var subscriptions: [Subscription] = []
    private var compactionThreshold = 32
    #else
    @exclusivity(unchecked)
    private var subscriptions: [Subscription] = []
    @exclusivity(unchecked)
    private var compactionThreshold = 32
    #endif
    var lifecycle = LifecycleEmitters()

    init(label: String, type: any Component.Type, address: UnsafeRawPointer, storage: AnyObject, parent: ComponentNode?, tree: ComponentTree?) {
        self.label = label
        self.address = address
        self.storage = storage
        self.componentType = type
        self.parentNode = parent
        self.treeReference = tree
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

    /// The bound component value as `any Component` (a copy sharing every
    /// emitter and store with the tree's): ComposeTerminal reads it to
    /// draw the view of a node it reached through a router or a
    /// container, whose type it does not know.
    /// Always a value (`value(as:)` with the node's own type); optional
    /// only so that no second unchecked load is needed here.
    package var componentValue: (any Component)? {
        func load<T: Component>(_ type: T.Type) -> (any Component)? {
            value(as: type)
        }
        return load(componentType)
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
    ///
    /// A destroyed scope takes no more subscriptions: the registration
    /// refused it already (``EmitterStorage/admits(_:)``), and one made
    /// around that check is cancelled here.
    @usableFromInline
    func retain(_ subscription: Subscription) {
        guard !isDestroyed else {
            subscription.cancel()
            return
        }
        if subscriptions.count >= compactionThreshold { compactSubscriptions() }
        // Room for four at once: most scopes get a few observers, and
        // growing from one to two to four would allocate three times.
        if subscriptions.capacity == 0 { subscriptions.reserveCapacity(4) }
        subscriptions.append(subscription)
    }

    /// Drops the tokens of observers that ended on their own (`!+=`,
    /// explicit cancel), so a long-lived scope does not grow forever.
    ///
    /// The dropped tokens are released after the new list is in place, not
    /// inside an access to it: a token may hold the last reference to an
    /// emitter whose observers' captured objects deinit and subscribe in
    /// this scope again (``retain(_:)`` re-entered). In place
    /// (`removeAll(where:)`) that was an exclusivity violation, and with
    /// unchecked exclusivity a double free (issue #28).
    @inline(never)
    private func compactSubscriptions() {
        var kept: [Subscription] = []
        kept.reserveCapacity(subscriptions.count)
        for subscription in subscriptions where subscription.isActive {
            kept.append(subscription)
        }
        let dropped = subscriptions
        subscriptions = kept
        compactionThreshold = Swift.max(32, kept.count * 2)
        // Released here, with no access to `subscriptions` in progress.
        _ = consume dropped
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
    ///
    /// A node destroyed while a dispatch runs is kept alive until the
    /// outermost dispatch ends (``ObservationContext/keepUntilDispatchEnds(_:)``):
    /// the observer that destroyed it may still run in its scope, and the
    /// dispatch reads that scope.
    func destroy() {
        guard !isDestroyed else { return }
        destroyedFlag = true
        ObservationContext.keepUntilDispatchEnds(self)
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
