/// The tasks a component started with ``Component/task(_:)``: cancelled
/// when it is destroyed; what they throw fails it.
@MainActor
final class ComponentTasks: ComponentAttachment {
    private weak var node: ComponentNode?
    private var running: [UInt64: Task<Void, Never>] = [:]
    /// Tasks started and not finished (a task that ends before `start`
    /// returns is never put in ``running``).
    private var unfinished: Set<UInt64> = []
    private var nextID: UInt64 = 0

    private init(node: ComponentNode) {
        self.node = node
    }

    /// The tasks of `node`, made on first use.
    static func of(_ node: ComponentNode) -> ComponentTasks {
        for attachment in node.attachments {
            if let tasks = attachment as? ComponentTasks { return tasks }
        }
        let tasks = ComponentTasks(node: node)
        node.attachments.append(tasks)
        return tasks
    }

    /// How many tasks run now.
    var count: Int { unfinished.count }

    func start(_ body: @escaping @MainActor () async throws -> Void) -> Task<Void, Never> {
        nextID += 1
        let id = nextID
        unfinished.insert(id)
        let context = node?.context
        let task = Task.immediate { @MainActor [weak self] in
            do {
                try await AppContextScope.$current.withValue(context) { try await body() }
            } catch is CancellationError {
            } catch {
                // Cancelled (its component destroyed, or by its owner):
                // what it threw is the cancellation's doing.
                if !Task.isCancelled, let node = self?.node, !node.isDestroyed {
                    node.fail(error)
                }
            }
            self?.finished(id)
        }
        if unfinished.contains(id) { running[id] = task }
        return task
    }

    private func finished(_ id: UInt64) {
        unfinished.remove(id)
        running[id] = nil
    }

    func componentWillBeDestroyed() {
        let tasks = running
        running = [:]
        unfinished = []
        for task in tasks.values { task.cancel() }
    }
}
