public import Logging

/// A bound tree of components: the nodes, their activation and focus, and
/// the diagnostics reported about them.
///
/// ComposeApp's `StartupComponent` and ComposeTesting's `TestHost` create one
/// for you; create one yourself to drive a tree by hand.
///
/// ```swift
/// let tree = ComponentTree(AppComponent())
/// tree.activate()      // didAppear, parents before children
/// tree.deactivate()    // didDisappear, children before parents
/// tree.destroy()       // every observer cancelled
/// ```
@MainActor
public final class ComponentTree {
    /// The app this tree belongs to: its clock, logger, diagnostics and
    /// shutdown. Every node reaches it (``ComponentNode/context``).
    public let context: AppContext
    /// Every diagnostic about this tree, also logged through ``logger``
    /// (the context's).
    public var diagnostics: Emitter<Diagnostic> { context.diagnostics }
    /// The logger diagnostics go to (the context's).
    public var logger: Logger { context.logger }
    /// The clock of time-based operators and timers in this tree (the
    /// context's), if any.
    public var scheduler: (any Scheduler)? { context.scheduler }
    /// The deepest focused component, while the tree is active.
    public private(set) var focusedNode: ComponentNode?
    /// The component a runtime put the focus on (a terminal's Tab), which
    /// wins over routing's while it is active (see ``focus(on:)``).
    private weak var focusOverride: ComponentNode?
    /// How many nodes are bound and not destroyed.
    public var liveNodeCount: Int { liveNodes }
    // Unchecked in release builds: only incremented and decremented, never
    // held across a call. Debug builds keep the checks.
    #if DEBUG
    private var liveNodes = 0
    #else
    @exclusivity(unchecked)
    private var liveNodes = 0
    #endif

    private var rootNode: ComponentNode?

    /// Binds `root` and its whole subtree with `context`: children first,
    /// then each component's `observers`, exactly once per instance, with
    /// `context` as ``AppContext/current``. The tree starts inactive; call
    /// ``activate()``.
    ///
    /// - Parameters:
    ///   - root: The root component.
    ///   - label: The root's label in paths; by default derived from its type
    ///     (`AppComponent` is `app`).
    ///   - context: The app the tree belongs to.
    public init<Root: Component>(_ root: consuming Root, label: String? = nil, context: AppContext) {
        self.context = context
        let label = label ?? Self.defaultLabel(for: Root.self)
        context.tree = self
        // The value moves into its one stored copy here, outside the
        // closure: captured, it would be copied again (a retain of every
        // emitter in the tree, and a release of each when this returns,
        // two passes over memory a large tree no longer has in cache).
        let storage = ValueStorage(root)
        rootNode = context.run { Binder.bind(stored: storage, label: label, parent: nil, tree: self) }
    }

    /// Binds `root` with a context of its own made from `scheduler`,
    /// `logger` and `diagnostics` (see ``init(_:label:context:)``). Made in
    /// the code of a running app (``AppContext/current``), the tree runs on
    /// that app's loop, and on its clock unless `scheduler` is given.
    ///
    /// - Parameters:
    ///   - root: The root component.
    ///   - label: The root's label in paths.
    ///   - scheduler: The clock of this tree's time-based operators.
    ///   - logger: Where diagnostics are logged; by default the running
    ///     app's logger, else one labelled `compose`.
    ///   - diagnostics: The emitter diagnostics are sent on. Pass one you
    ///     already observe to see those reported while binding.
    public convenience init<Root: Component>(
        _ root: consuming Root,
        label: String? = nil,
        scheduler: (any Scheduler)? = nil,
        logger: Logger? = nil,
        diagnostics: Emitter<Diagnostic> = Emitter()
    ) {
        let running = AppContext.current
        let context = AppContext(
            name: Self.defaultLabel(for: Root.self),
            isSimulated: running?.isSimulated ?? false,
            scheduler: scheduler ?? running?.scheduler,
            logger: logger ?? running?.logger ?? Logger(label: "compose"),
            diagnostics: diagnostics
        )
        context.runtime = running?.runtime
        self.init(root, label: label, context: context)
    }

    /// The root node.
    public var root: ComponentNode {
        // Set in init, never cleared.
        rootNode!
    }

    /// Whether the root is active.
    public var isActive: Bool { root.isActive }

    // MARK: Activation

    /// Makes the tree active: `didAppear` on the root, then on its active
    /// children, parents before children; then `didEnterFocus` on the deepest
    /// focused component.
    public func activate() {
        guard !root.isDestroyed else {
            report(Diagnostic(.treeDestroyed, "activate() was called on a destroyed tree; bind a new ComponentTree instead."))
            return
        }
        context.run {
            activate(root)
            refreshFocus()
        }
    }

    /// Makes the tree inactive: `didLeaveFocus` on the focused component,
    /// then `didDisappear`, children before parents (later siblings first).
    public func deactivate() {
        context.run {
            releaseFocus()
            deactivate(root)
        }
    }

    /// Deactivates the tree, then destroys every node, cancelling every
    /// observer registered in the tree and on its emitters.
    public func destroy() {
        context.run {
            deactivate()
            root.destroy()
        }
    }

    /// Activates `node` and its active children, parent first.
    func activate(_ node: ComponentNode) {
        guard !node.isActive, !node.isDestroyed else { return }
        node.isActive = true
        // Resources start before `didAppear`, so its observers can use them.
        for attachment in node.attachments { attachment.componentDidAppear() }
        node.sendLifecycle(\.didAppear)
        if context.eventTrace.isOn { context.record(.didAppear, path: node.path) }
        guard node.isActive else { return }
        node.behavior?.nodeDidActivate(node)
        for child in node.activeChildren {
            // An observer of didAppear may have deactivated or destroyed us.
            guard node.isActive else { return }
            activate(child)
        }
    }

    /// Deactivates `node`'s subtree, children first, later siblings first.
    func deactivate(_ node: ComponentNode) {
        guard node.isActive else { return }
        for child in node.activeChildren.reversed() {
            deactivate(child)
        }
        node.isActive = false
        node.sendLifecycle(\.didDisappear)
        if context.eventTrace.isOn { context.record(.didDisappear, path: node.path) }
        for attachment in node.attachments { attachment.componentDidDisappear() }
        node.behavior?.nodeDidDeactivate(node)
    }

    // MARK: Focus

    /// Recomputes the deepest focused component and sends
    /// `didLeaveFocus`/`didEnterFocus` if it changed.
    func refreshFocus() {
        var next = routedFocus
        if next != nil, let focusOverride, focusOverride.isActive, !focusOverride.isDestroyed {
            next = focusOverride
        }
        guard next !== focusedNode else { return }
        let previous = focusedNode
        focusedNode = next
        previous?.sendLifecycle(\.didLeaveFocus)
        if let previous, context.eventTrace.isOn { context.record(.didLeaveFocus, path: previous.path) }
        next?.sendLifecycle(\.didEnterFocus)
        if let next, context.eventTrace.isOn { context.record(.didEnterFocus, path: next.path) }
    }

    /// The deepest component routing focuses (each router's top route,
    /// from the root down), while the tree is active: ``focusedNode``
    /// unless a runtime put the focus elsewhere (``focus(on:)``).
    package var routedFocus: ComponentNode? {
        guard root.isActive else { return nil }
        var current = root
        while let child = current.behavior?.focusedChild(of: current), child.isActive {
            current = child
        }
        return current
    }

    /// Puts the focus on `node` (while it is active) instead of where
    /// routing puts it, or gives it back to routing (`nil`):
    /// `didLeaveFocus` and `didEnterFocus` are sent as for a route
    /// change. For a runtime whose user moves the focus (a terminal's Tab
    /// between the views of two components).
    package func focus(on node: ComponentNode?) {
        focusOverride = node
        refreshFocus()
    }

    /// Sends `didLeaveFocus` to the focused component and clears focus;
    /// ``refreshFocus()`` finds the new one after a change.
    func releaseFocus() {
        guard let previous = focusedNode else { return }
        focusedNode = nil
        previous.sendLifecycle(\.didLeaveFocus)
        if context.eventTrace.isOn { context.record(.didLeaveFocus, path: previous.path) }
    }

    // MARK: Lookup

    /// The node at a label path: `"app.auth.logIn"`, or the same without the
    /// root label (`"auth.logIn"`); `"app"` or `""` is the root.
    public func node(at path: String) -> ComponentNode? {
        var labels = path.split(separator: ".").map(String.init)
        if labels.first == root.label { labels.removeFirst() }
        var current = root
        for label in labels {
            guard let next = current.child(labelled: label) else { return nil }
            current = next
        }
        return current
    }

    /// Every live node, depth first, parents before children.
    public var allNodes: [ComponentNode] {
        var result: [ComponentNode] = []
        func visit(_ node: ComponentNode) {
            guard !node.isDestroyed else { return }
            result.append(node)
            node.children.forEach(visit)
        }
        visit(root)
        return result
    }

    /// Runs `body` with the root's observation scope in effect, as if it ran
    /// in the root's `observers`: observers registered meanwhile belong to
    /// the root, and child components are found from it. For runtimes that
    /// call user code around binding (`didBindRootComponent`).
    package func withRootScope<R>(_ body: () throws -> R) rethrows -> R {
        try context.run { try ObservationContext.withScope(root, body) }
    }

    // MARK: Bookkeeping

    func nodeBound(_ node: ComponentNode) {
        liveNodes += 1
    }

    func nodeDestroyed(_ node: ComponentNode) {
        liveNodes -= 1
        if focusedNode === node { focusedNode = nil }
    }

    /// Logs `diagnostic` and sends it on ``diagnostics``.
    func report(_ diagnostic: Diagnostic) {
        context.report(diagnostic)
    }

    /// The type's name without generic arguments or a `Component`
    /// suffix, lowercased first letter: `ChatAppComponent` is `chatApp`.
    package static func defaultLabel(for type: Any.Type) -> String {
        // What String(describing:) prints for a type, without its search
        // for a CustomStringConvertible conformance first: that scan of
        // every conformance record costs an app's startup about 2.7
        // million instructions (docs/footprint.md).
        var name = _typeName(type, qualified: false)
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        if name.hasSuffix("Component"), name.count > "Component".count {
            name.removeLast("Component".count)
        }
        guard let first = name.first else { return "root" }
        // `String(...)` first: `String + Substring` appends through the
        // generic `append(contentsOf:)`, whose first use looks for
        // `Substring: Collection` through every conformance record (180
        // thousand instructions at every start; docs/footprint.md).
        return first.lowercased() + String(name.dropFirst())
    }
}
