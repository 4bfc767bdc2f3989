/// The state behind ``InstanceComponent``: live instances by id, each bound
/// as a child of the container's node (labelled with its id).
@MainActor
final class InstanceBox<Content: Component>: ContainerBox<InstanceID>, NodeBehavior {
    struct Instance {
        let id: InstanceID
        let component: Content
        let node: ComponentNode
    }

    private(set) var instances: [Instance] = []
    private var nextID: UInt64 = 1
    /// Emitters that forward one member emitter of every instance.
    private var forwards: [AnyKeyPath: Forward] = [:]

    nonisolated override init() {
        super.init()
    }

    func add(_ make: @MainActor () -> Content) -> InstanceID? {
        guard let container, !container.isDestroyed else {
            report(.containerNotBound, "add on an InstanceComponent<\(Content.self)> that is not part of a bound tree; nothing was added. Add instances from observers of the component that stores it.")
            return nil
        }
        let id = InstanceID(rawValue: nextID)
        nextID += 1
        let component = make()
        let node = Binder.bind(component, label: "\(id)", parent: container, tree: container.tree)
        let instance = Instance(id: id, component: component, node: node)
        instances.append(instance)
        container.children.append(node)
        for forward in forwards.values { forward.connect(instance) }
        didCreate.send(id)
        if container.isActive, !node.isDestroyed {
            container.tree?.activate(node)
        }
        return id
    }

    func remove(_ id: InstanceID) {
        guard let index = instances.firstIndex(where: { $0.id == id }) else {
            report(.unknownInstance, "remove(\(id)) on \(container?.path ?? "an InstanceComponent"): no live instance has that id. Live ids: \(instances.map(\.description))")
            return
        }
        let instance = instances.remove(at: index)
        if let tree = container?.tree, instance.node.isActive {
            if let focused = tree.focusedNode, focused === instance.node || focused.isDescendant(of: instance.node) {
                tree.releaseFocus()
            }
            tree.deactivate(instance.node)
        }
        container?.removeChild(instance.node)
        instance.node.destroy()
        didDestroy.send(id)
        container?.tree?.refreshFocus()
    }

    func instance(for id: InstanceID) -> Content? {
        instances.first { $0.id == id }?.component
    }

    func forward<Value>(_ keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<(id: InstanceID, value: Value)> {
        if let existing = forwards[keyPath]?.output as? Emitter<(id: InstanceID, value: Value)> {
            return existing
        }
        let output = Emitter<(id: InstanceID, value: Value)>()
        if let container { output.adopt(by: container) }
        // Each instance's observer lives in that instance's scope, so it
        // ends with the instance.
        let forward = Forward(output: output) { instance in
            let id = instance.id
            ObservationContext.withScope(instance.node) {
                instance.component[keyPath: keyPath] += { value in
                    output.send((id: id, value: value))
                }
            }
        }
        forwards[keyPath] = forward
        for instance in instances { forward.connect(instance) }
        return output
    }

    // MARK: NodeBehavior

    func activeChildren(of node: ComponentNode) -> [ComponentNode] {
        instances.map(\.node)
    }

    func focusedChild(of node: ComponentNode) -> ComponentNode? { nil }

    override func ownerWillBeDestroyed() {
        instances = []
        forwards = [:]
    }


    /// One member emitter of every instance, forwarded as `(id, value)`.
    struct Forward {
        let output: Any
        let connect: @MainActor (Instance) -> Void
    }
}

extension InstanceBox.Instance: CustomStringConvertible {
    var description: String { id.description }
}
