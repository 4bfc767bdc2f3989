/// The state behind ``InstanceComponent``: live instances by id, each bound
/// as a child of the container's node (labelled with its id).
///
/// The box keeps the instances' nodes itself (the container node asks it
/// for its ``ComponentNode/children``), so adding, finding and removing an
/// instance never scans the others.
@MainActor
@usableFromInline
final class InstanceBox<Content: Component>: ContainerBox<InstanceID>, NodeBehavior {
    @usableFromInline
    struct Instance {
        @usableFromInline let id: InstanceID
        @usableFromInline let component: Content
        @usableFromInline let node: ComponentNode
    }

    @usableFromInline
    private(set) var instances = InstanceSlots<Instance>()
    private var nextID: UInt64 = 1
    /// Set when the container's node took over the instance nodes.
    private var handedOver = false
    /// Emitters that forward one member emitter of every instance (read
    /// by inspection, which names them: InstanceBox+NamedEmitters.swift).
    private(set) var forwards: [AnyKeyPath: Forward] = [:]

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
        instances.append(instance, for: id)
        for forward in forwards.values { forward.connect(instance) }
        didCreate.send(id)
        if container.isActive, !node.isDestroyed {
            container.tree?.activate(node)
        }
        return id
    }

    func remove(_ id: InstanceID) {
        guard let instance = instances.remove(id) else {
            report(.unknownInstance, "remove(\(id)) on \(container?.path ?? "an InstanceComponent"): no live instance has that id. Live ids: \(liveIDsForDiagnostic)")
            return
        }
        if let tree = container?.tree, instance.node.isActive {
            if let focused = tree.focusedNode, focused === instance.node || focused.isDescendant(of: instance.node) {
                tree.releaseFocus()
            }
            tree.deactivate(instance.node)
        }
        instance.node.detachFromParent()
        instance.node.destroy()
        didDestroy.send(id)
        container?.tree?.refreshFocus()
    }

    @inlinable
    func instance(for id: InstanceID) -> Content? {
        instances.value(for: id)?.component
    }

    /// The live ids, for a diagnostic: the first few, then how many more.
    private var liveIDsForDiagnostic: String {
        let shown = instances.prefix(20).map(\.id.description)
        let more = instances.count - shown.count
        return "[" + shown.joined(separator: ", ") + "]" + (more > 0 ? " and \(more) more" : "")
    }

    func forward<Value>(_ keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<(id: InstanceID, value: Value)> {
        if let existing = forwards[keyPath]?.output as? Emitter<(id: InstanceID, value: Value)> {
            return existing
        }
        let output = Emitter<(id: InstanceID, value: Value)>()
        if let container { container.adopt(output) }
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
        for entry in instances { forward.connect(entry.value) }
        return output
    }

    // MARK: NodeBehavior

    func children(of node: ComponentNode) -> [ComponentNode]? {
        // Once the container is destroyed its node keeps the instances'
        // nodes itself (see ownerWillBeDestroyed).
        guard !handedOver else { return nil }
        return instances.map(\.value.node)
    }

    func child(labelled label: String, of node: ComponentNode) -> ComponentNode? {
        guard !handedOver else { return node.ownChildren.first { $0.label == label } }
        guard let raw = UInt64(label), String(raw) == label else { return nil }
        return instances.value(for: InstanceID(rawValue: raw))?.node
    }

    func activeChildren(of node: ComponentNode) -> [ComponentNode] {
        instances.map(\.value.node)
    }

    func focusedChild(of node: ComponentNode) -> ComponentNode? { nil }

    override func ownerWillBeDestroyed() {
        // The container's node takes over the (destroyed) instance nodes:
        // it clears their parent link when it goes away, as it does for
        // stored children. The box lets go of them and of the components,
        // which may hold the box.
        container?.ownChildren = instances.map(\.value.node)
        handedOver = true
        instances.removeAll()
        forwards = [:]
    }


    /// One member emitter of every instance, forwarded as `(id, value)`.
    struct Forward {
        let output: Any
        let connect: @MainActor (Instance) -> Void
    }
}
