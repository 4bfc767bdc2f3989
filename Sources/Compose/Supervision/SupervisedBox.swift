/// What a ``Supervisor`` asks of each of its children, whatever the
/// component type (``SupervisedBox``).
@MainActor
protocol SupervisedChild: AnyObject {
    /// The `Supervised` property's label.
    var label: String { get }
    /// The supervisor of this child, once the parent component bound.
    var supervisor: Supervisor? { get set }
    /// The `Supervised` container's node.
    var container: ComponentNode? { get }
    /// Whether a component runs now (not stopped, not waiting to restart).
    var isRunning: Bool { get }
    /// Bumped each time a component is made: a failure reported by one
    /// component is not applied to the next.
    var generation: Int { get }
    /// Set while a failure of the current component awaits its handling.
    var isFailing: Bool { get set }
    /// Restarts so far.
    var restartCount: Int { get }
    /// Destroys the component, if any, and cancels a pending restart.
    func stop()
    /// Makes a fresh component after `delay` (if the container is still
    /// active then), then calls `restarted` with the restart's number.
    func restart(after delay: Duration, restarted: @escaping @MainActor (_ count: Int) -> Void)
    /// A component of this child's subtree failed.
    func childFailed(_ failure: ComponentFailure)
}

/// The state behind ``Supervised``: at most one instance of `Content`,
/// bound as the only child of the container's node, made when the
/// container activates and again by its supervisor after a failure.
@MainActor
final class SupervisedBox<Content: Component>: ContainerBox<Void>, NodeBehavior, SupervisedChild {
    let factory: @MainActor () -> Content
    private(set) var instance: Content?
    private(set) var instanceNode: ComponentNode?
    weak var supervisor: Supervisor?
    private(set) var generation = 0
    var isFailing = false
    private(set) var restartCount = 0
    /// The restart waiting for its backoff delay.
    private var pendingRestart: ScheduledAction?
    /// Emitters that forward one member emitter of every instance (read
    /// by inspection, which names them: SupervisedBox+NamedEmitters.swift).
    private(set) var forwards: [AnyKeyPath: Forward] = [:]

    nonisolated init(factory: @escaping @MainActor () -> Content) {
        self.factory = factory
        super.init()
    }

    var label: String { container?.label ?? "supervised" }
    // The instance is set before it binds, so a failure reported while its
    // observers run counts.
    var isRunning: Bool { instance != nil }

    // MARK: Running

    /// Makes, binds and (if the container is active) activates an instance.
    private func start() {
        guard let container, !container.isDestroyed, instance == nil else { return }
        generation += 1
        isFailing = false
        let value = factory()
        instance = value
        let node = Binder.bind(value, label: "component", parent: container, tree: container.tree)
        instanceNode = node
        container.ownChildren = [node]
        for forward in forwards.values { forward.connect(value, node) }
        didCreate.send()
        if container.isActive, instanceNode === node {
            container.tree?.activate(node)
            container.tree?.refreshFocus()
        }
    }

    func stop() {
        cancelPendingRestart()
        isFailing = false
        guard let node = instanceNode else { return }
        destroyChild(node) {
            instanceNode = nil
            instance = nil
        }
        didDestroy.send()
        container?.tree?.refreshFocus()
    }

    func restart(after delay: Duration, restarted: @escaping @MainActor (_ count: Int) -> Void) {
        cancelPendingRestart()
        let fire: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            if pendingRestart != nil {
                pendingRestart = nil
                container?.context?.endWork()
            }
            guard let container, container.isActive, instance == nil else { return }
            restartCount += 1
            container.context?.counters.countRestart()
            start()
            restarted(restartCount)
        }
        guard let context = container?.context, let scheduler = context.scheduler else {
            fire()
            return
        }
        // A pending restart keeps the app running, as its timer does in a
        // live loop.
        context.beginWork()
        pendingRestart = scheduler.schedule(after: delay, fire)
    }

    private func cancelPendingRestart() {
        guard let action = pendingRestart else { return }
        pendingRestart = nil
        let context = container?.context
        context?.scheduler?.cancel(action)
        context?.endWork()
    }

    /// A component of this child's subtree failed.
    func childFailed(_ failure: ComponentFailure) {
        guard let container, !container.isDestroyed else { return }
        if supervisor == nil, let parent = container.parent {
            Supervisor.makeDefault(for: parent)
        }
        guard let supervisor else {
            // A `Supervised` root: nothing above it restarts it.
            Supervision.failUnsupervised(failure, in: container.context)
            return
        }
        supervisor.childFailed(self, failure)
    }

    // MARK: NodeBehavior

    func activeChildren(of node: ComponentNode) -> [ComponentNode] {
        instanceNode.map { [$0] } ?? []
    }

    func focusedChild(of node: ComponentNode) -> ComponentNode? {
        instanceNode
    }

    func nodeDidActivate(_ node: ComponentNode) {
        guard instance == nil, pendingRestart == nil, supervisor?.hasGivenUp != true else { return }
        start()
    }

    func nodeDidDeactivate(_ node: ComponentNode) {
        stop()
    }

    override func ownerWillBeDestroyed() {
        cancelPendingRestart()
        instanceNode = nil
        instance = nil
        forwards = [:]
    }

    // MARK: Member access

    func member<Value>(_ keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<Value> {
        if let instance { return instance[keyPath: keyPath] }
        report(.containerNotCreated, "\(container?.path ?? "Supervised").\(keyPath) was read while no \(Content.self) runs (stopped, or waiting to restart); the emitter returned is detached and never fires. Use forward(\\.member) for an emitter that outlives restarts.")
        return Emitter()
    }

    func forward<Value>(_ keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<Value> {
        if let existing = forwards[keyPath]?.output as? Emitter<Value> { return existing }
        let output = Emitter<Value>()
        if let container { container.adopt(output) }
        // The observer lives in the instance's scope, so it ends with it.
        let forward = Forward(output: output) { instance, node in
            ObservationContext.withScope(node) {
                _ = instance[keyPath: keyPath] += { value in output.send(value) }
            }
        }
        forwards[keyPath] = forward
        if let instance, let instanceNode { forward.connect(instance, instanceNode) }
        return output
    }

    /// One member emitter of every instance, forwarded.
    struct Forward {
        let output: Any
        let connect: @MainActor (Content, ComponentNode) -> Void
    }
}
