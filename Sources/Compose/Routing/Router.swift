/// A stack of routes over the stored child components of one component.
///
/// Declare it as a stored `let` of a ``RouterComponent`` with the route it
/// starts on; route with key paths rooted at that component:
///
/// ```swift
/// let router = Router(start: \Self.logIn)
/// ...
/// router.push(\Self.signUp)
/// router.pop()
/// ```
///
/// Routes are resolved when the tree is bound. A key path that does not lead
/// to a stored child component, pushing a route already on the stack,
/// popping the last route, or routing before the component is bound is
/// reported as a diagnostic and changes nothing.
///
/// Lifecycle: a routed child appears when it is put on the stack (parents
/// before children) and disappears when it leaves it (children first).
/// Focus leaves the old deepest focused component before the stack changes
/// and enters the new one after.
@MainActor
public final class Router: BoundObject {
    /// Sent with the pushed route after ``push(_:)``.
    public let didPush = Emitter<Route>()
    /// Sent with each removed route after ``pop()`` or ``popToRoot()``.
    public let didPop = Emitter<Route>()
    /// Sent with the new route after ``replace(_:)``.
    public let didReplace = Emitter<Route>()
    /// Sent with the new top route after every change of the stack.
    public let didChangePath = Emitter<Route>()

    struct Entry {
        let route: Route
        let node: ComponentNode
    }

    private let start: RouteKey
    private var entries: [Entry] = []
    private var layout: ComponentLayout?
    /// The tree and path of the component, kept to report misuse after it
    /// was destroyed.
    private weak var tree: ComponentTree?
    private var boundPath: String?
    private var wasDestroyed = false

    /// Creates a router that starts on `start`, a key path from the router
    /// component to one of its stored child components, or `\Self.self`.
    nonisolated public init<Root: Component, Value>(start: KeyPath<Root, Value>) {
        self.start = RouteKey(start)
        super.init()
    }

    // MARK: State

    /// The top route.
    public var path: Route {
        entries.last?.route ?? unboundRoute(start)
    }

    /// The whole stack, bottom first.
    public var paths: [Route] {
        entries.isEmpty ? [unboundRoute(start)] : entries.map(\.route)
    }

    /// The node of the top route, once bound.
    public var topNode: ComponentNode? {
        entries.last?.node
    }

    // MARK: Routing

    /// Puts `route` on top of the stack and activates it.
    public func push<Root: Component, Value>(_ route: KeyPath<Root, Value>) {
        guard let target = resolve(RouteKey(route), for: "push") else { return }
        if entries.contains(where: { $0.node === target.node }) {
            report(.routeAlreadyOnStack, "push(\(target.route)) on the router of \(ownerPath): \(target.route) is already on the stack \(pathsDescription). Pop back to it with pop() or popToRoot(), or use replace().")
            return
        }
        change {
            entries.append(target)
            activate(target.node)
        }
        didPush.send(target.route)
        changedPath(to: target.route)
    }

    /// Removes the top route and deactivates it. Popping the last route is a
    /// diagnostic: a router always shows something.
    public func pop() {
        guard checkBound(for: "pop") else { return }
        guard entries.count > 1 else {
            report(.emptyStack, "pop() on the router of \(ownerPath): the stack \(pathsDescription) has only its root route; nothing was popped. Use replace() to show something else.")
            return
        }
        var removed: Entry?
        change {
            removed = entries.removeLast()
            deactivate(removed!.node)
        }
        didPop.send(removed!.route)
        changedPath(to: path)
    }

    /// Removes every route above the start route (or, if the start route was
    /// replaced, replaces the stack with it). `didPop` is sent for each
    /// removed route, top first.
    public func popToRoot() {
        guard checkBound(for: "popToRoot"), let startEntry = resolve(start, for: "popToRoot") else { return }
        guard let startIndex = entries.firstIndex(where: { $0.node === startEntry.node }) else {
            replace(with: startEntry)
            return
        }
        guard startIndex < entries.count - 1 else { return }
        var removed: [Entry] = []
        change {
            while entries.count > startIndex + 1 {
                let entry = entries.removeLast()
                removed.append(entry)
                deactivate(entry.node)
            }
        }
        for entry in removed { didPop.send(entry.route) }
        changedPath(to: path)
    }

    /// Replaces the whole stack with `route`.
    public func replace<Root: Component, Value>(_ route: KeyPath<Root, Value>) {
        guard let target = resolve(RouteKey(route), for: "replace") else { return }
        replace(with: target)
    }

    private func replace(with target: Entry) {
        if entries.count == 1, entries[0].node === target.node { return }
        change {
            let old = entries
            let wasOnStack = old.contains { $0.node === target.node }
            entries = [target]
            for entry in old.reversed() where entry.node !== target.node {
                deactivate(entry.node)
            }
            if !wasOnStack { activate(target.node) }
        }
        didReplace.send(target.route)
        changedPath(to: target.route)
    }

    /// Sends `didChangePath` and records the change as an ``AppEvent``.
    private func changedPath(to route: Route) {
        if let node = owner, let context = node.context, context.tracesEvents {
            context.record(.routed, path: node.path, value: route.isSelf ? "self" : route.label)
        }
        didChangePath.send(route)
    }

    // MARK: Lifecycle

    /// Runs a change of the stack between focus leaving and focus entering.
    private func change(_ body: () -> Void) {
        guard let node = owner, let tree = node.tree else {
            body()
            return
        }
        if let focused = tree.focusedNode, focused === node || focused.isDescendant(of: node) {
            tree.releaseFocus()
        }
        body()
        tree.refreshFocus()
    }

    private func activate(_ child: ComponentNode) {
        guard let node = owner, node.isActive, child !== node else { return }
        node.tree?.activate(child)
    }

    private func deactivate(_ child: ComponentNode) {
        guard let node = owner, child !== node else { return }
        node.tree?.deactivate(child)
    }

    // MARK: Binding

    override func claim(by node: ComponentNode) {
        super.claim(by: node)
        guard owner === node else { return }
        tree = node.tree
        boundPath = node.path
        wasDestroyed = false
        for emitter in [didPush, didPop, didReplace, didChangePath] {
            // The router records route changes as events of its own.
            emitter.storage.exemptFromTracing()
            node.adopt(emitter)
        }
    }

    override func didBindChildren(of node: ComponentNode) {
        guard owner === node else { return }
        let layout = ComponentLayout.of(node.componentType)
        self.layout = layout
        node.behavior = self
        for group in Self.indistinguishableChildren(in: layout) {
            report(.ambiguousRoute, "The router of \(ownerPath) cannot tell \(Self.describe(group)) apart: they are \(group[0].type) components of size zero at one offset, so their key paths are equal, and routing by key path to either is refused. Give \(group[0].type) a stored property (an emitter will do), or open them by label (deep links).")
        }
        if let entry = resolve(start, for: "Router(start:)") {
            entries = [entry]
        }
    }

    // MARK: Resolution

    /// The route and node `key` names, or `nil` after reporting why not.
    func resolve(_ key: RouteKey, for operation: String) -> Entry? {
        guard checkBound(for: operation), let node = owner, let layout else { return nil }
        guard key.rootType == ObjectIdentifier(node.componentType) else {
            report(.invalidRoute, "\(operation)(\(key)) on the router of \(ownerPath): the key path starts at \(key.rootName), but this router belongs to \(node.componentType). Use a key path rooted at \\Self.")
            return nil
        }
        if key.isSelf {
            return Entry(route: Route(label: "self", isSelf: true, rootType: key.rootType, valueType: key.valueType, offset: 0), node: node)
        }
        let names: (ComponentLayout.Child) -> Bool = { $0.offset == key.offset && ObjectIdentifier($0.type) == key.valueType }
        let found = layout.children.firstIndex(where: names)
        if let found, let other = layout.children[(found + 1)...].firstIndex(where: names) {
            let type = layout.children[found].type
            report(.ambiguousRoute, "\(operation)(\(key)) on the router of \(ownerPath): the key path names \(Self.describe([layout.children[found], layout.children[other]])) alike (\(type) components of size zero share an offset). Nothing changed. Give \(type) a stored property, or open the route by label.")
            return nil
        }
        guard let index = found, index < node.children.count else {
            report(.invalidRoute, "\(operation)(\(key)) on the router of \(ownerPath): the key path does not lead to a stored child component of \(node.componentType). Routes: \(routeChoices).")
            return nil
        }
        let child = layout.children[index]
        let childNode = node.children[index]
        if let refusal = childNode.behavior?.routingRefusal(of: childNode) {
            report(.invalidRoute, "\(operation)(\(key)) on the router of \(ownerPath): \(refusal)")
            return nil
        }
        return Entry(route: Route(label: child.label, isSelf: false, rootType: key.rootType, valueType: ObjectIdentifier(child.type), offset: child.offset), node: childNode)
    }

    /// The entry for a child node reached by label (deep links).
    func entry(for childNode: ComponentNode) -> Entry? {
        guard let node = owner, let layout else { return nil }
        if childNode === node {
            return Entry(route: Route(label: "self", isSelf: true, rootType: ObjectIdentifier(node.componentType), valueType: ObjectIdentifier(node.componentType), offset: 0), node: node)
        }
        guard let index = node.children.firstIndex(where: { $0 === childNode }), index < layout.children.count else { return nil }
        let child = layout.children[index]
        return Entry(route: Route(label: child.label, isSelf: false, rootType: ObjectIdentifier(node.componentType), valueType: ObjectIdentifier(child.type), offset: child.offset), node: childNode)
    }

    func push(entry: Entry) {
        change {
            entries.append(entry)
            activate(entry.node)
        }
        didPush.send(entry.route)
        changedPath(to: entry.route)
    }

    func replace(entry: Entry) {
        replace(with: entry)
    }

    /// Pops until `node` is on top. Returns false if it is not on the stack.
    func popTo(_ node: ComponentNode) -> Bool {
        guard let index = entries.firstIndex(where: { $0.node === node }) else { return false }
        while entries.count > index + 1 { pop() }
        return true
    }

    var stackNodes: [ComponentNode] { entries.map(\.node) }

    /// Takes `child` off the stack wherever it is (a dynamic component being
    /// destroyed). Sends `didPop` for it and `didChangePath` if the top
    /// changed. A stack left empty falls back to the start route.
    func remove(_ child: ComponentNode) {
        guard let index = entries.firstIndex(where: { $0.node === child }) else { return }
        let wasTop = index == entries.count - 1
        var removed: Entry?
        change {
            removed = entries.remove(at: index)
            deactivate(child)
            if entries.isEmpty, let startEntry = resolve(start, for: "remove"), startEntry.node !== child {
                entries = [startEntry]
                activate(startEntry.node)
            }
        }
        didPop.send(removed!.route)
        if wasTop { changedPath(to: path) }
    }

    /// Children whose key paths are equal: same type, same offset (only
    /// zero-size components can share one), in groups of two or more.
    private static func indistinguishableChildren(in layout: ComponentLayout) -> [[ComponentLayout.Child]] {
        guard layout.children.count > 1 else { return [] }
        var groups: [[ComponentLayout.Child]] = []
        for child in layout.children {
            if let index = groups.firstIndex(where: { $0[0].offset == child.offset && ObjectIdentifier($0[0].type) == ObjectIdentifier(child.type) }) {
                groups[index].append(child)
            } else {
                groups.append([child])
            }
        }
        return groups.filter { $0.count > 1 }
    }

    /// `\Self.home and \Self.settings`.
    private static func describe(_ children: [ComponentLayout.Child]) -> String {
        let names = children.map { "\\Self.\($0.label)" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    private var routeChoices: String {
        guard let layout, !layout.children.isEmpty else { return "none (the component stores no child component)" }
        return (["\\Self.self"] + layout.children.map { "\\Self.\($0.label)" }).joined(separator: ", ")
    }

    private var pathsDescription: String {
        "[" + paths.map(\.description).joined(separator: ", ") + "]"
    }

    private var ownerPath: String { owner?.path ?? boundPath ?? "an unbound component" }

    override func ownerWillBeDestroyed() {
        wasDestroyed = true
        entries = []
    }

    private func checkBound(for operation: String) -> Bool {
        guard let node = owner, !node.isDestroyed, layout != nil else {
            let reason = wasDestroyed ? "its component was destroyed" : "its component is not bound yet (route from observers, or after binding)"
            report(.routerNotBound, "\(operation) on a router that cannot route: \(reason). Nothing changed.")
            return false
        }
        return true
    }

    private func report(_ code: Diagnostic.Code, _ message: String) {
        let diagnostic = Diagnostic(code, message, path: owner?.path ?? boundPath)
        if let tree { tree.report(diagnostic) } else { Diagnostics.report(diagnostic) }
    }

    private func unboundRoute(_ key: RouteKey) -> Route {
        Route(label: key.isSelf ? "self" : key.description, isSelf: key.isSelf, rootType: key.rootType, valueType: key.valueType, offset: key.offset ?? -1)
    }
}

extension Router: NodeBehavior {
    func activeChildren(of node: ComponentNode) -> [ComponentNode] {
        entries.compactMap { $0.node === node ? nil : $0.node }
    }

    func focusedChild(of node: ComponentNode) -> ComponentNode? {
        guard let top = entries.last?.node, top !== node else { return nil }
        return top
    }
}
