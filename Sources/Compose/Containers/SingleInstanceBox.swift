/// The state behind ``LazyComponent`` and ``DynamicComponent``: at most one
/// instance of `Content`, bound as the only child of the container's node.
@MainActor
final class SingleInstanceBox<Content: Component>: ContainerBox<Void>, NodeBehavior {
    /// Set for a lazy component: the instance is made on activation.
    let factory: (@MainActor () -> Content)?
    private(set) var instance: Content?
    private(set) var instanceNode: ComponentNode?
    private let kind: String

    nonisolated init(kind: String, factory: (@MainActor () -> Content)?) {
        self.kind = kind
        self.factory = factory
        super.init()
    }

    // MARK: Creating and destroying

    /// Makes and binds the instance; activates it if the container is active.
    @discardableResult
    func create(_ make: @MainActor () -> Content) -> Bool {
        guard let container, !container.isDestroyed else {
            report(.containerNotBound, "create on a \(kind)<\(Content.self)> that is not part of a bound tree; nothing was created. Create it from observers of the component that stores it.")
            return false
        }
        guard instance == nil else {
            report(.alreadyCreated, "create on \(container.path), which already holds a \(Content.self); nothing changed. Call destroy() first to replace it.")
            return false
        }
        let value = make()
        instance = value
        let node = Binder.bind(value, label: "component", parent: container, tree: container.tree)
        instanceNode = node
        container.ownChildren = [node]
        didCreate.send()
        if container.isActive, instanceNode === node {
            container.tree?.activate(node)
            container.tree?.refreshFocus()
        }
        return true
    }

    /// Deactivates and destroys the instance, cancelling every observer in
    /// its subtree and on its emitters.
    func destroyInstance() {
        guard let node = instanceNode else { return }
        destroyChild(node) {
            instanceNode = nil
            instance = nil
        }
        didDestroy.send()
        container?.tree?.refreshFocus()
    }

    // MARK: NodeBehavior

    func activeChildren(of node: ComponentNode) -> [ComponentNode] {
        instanceNode.map { [$0] } ?? []
    }

    func focusedChild(of node: ComponentNode) -> ComponentNode? {
        instanceNode
    }

    func routingRefusal(of node: ComponentNode) -> String? {
        guard factory == nil, instance == nil else { return nil }
        return "\(node.path) is a DynamicComponent<\(Content.self)> that was not created. Call create { ... } on it before routing to it."
    }

    func nodeDidActivate(_ node: ComponentNode) {
        guard let factory, instance == nil else { return }
        create(factory)
    }

    func nodeDidDeactivate(_ node: ComponentNode) {
        guard factory != nil else { return }
        destroyInstance()
    }

    override func ownerWillBeDestroyed() {
        instanceNode = nil
        instance = nil
    }

    // MARK: Member access

    func member<Value>(_ keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<Value> {
        if let instance { return instance[keyPath: keyPath] }
        report(.containerNotCreated, "\(container?.path ?? kind).\(keyPath) was read while no \(Content.self) exists; the emitter returned is detached and never fires. Observe it from didCreate, or after create { ... }.")
        return Emitter()
    }

}
