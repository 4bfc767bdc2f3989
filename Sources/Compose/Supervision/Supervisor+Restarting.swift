internal import Logging

extension Supervisor {
    // MARK: Children

    /// Takes the `Supervised` children of `node` that no supervisor holds
    /// yet, in declaration order.
    func adoptChildren(of node: ComponentNode) {
        var found = false
        for child in node.ownChildren {
            guard let supervised = child.behavior as? any SupervisedChild else { continue }
            found = true
            guard supervised.supervisor == nil else { continue }
            supervised.supervisor = self
            children.append(supervised)
        }
        if found, children.isEmpty {
            Diagnostics.report(Diagnostic(
                .duplicateSupervisor,
                "\(node.path) declares more than one Supervisor; the first one supervises its Supervised children and this one supervises nothing.",
                path: node.path
            ), in: node)
        }
    }

    /// Gives `node`, whose `Supervised` children have no supervisor (it
    /// declares none), a supervisor with the default settings.
    static func makeDefault(for node: ComponentNode) {
        let supervisor = Supervisor()
        supervisor.claim(by: node)
        supervisor.adoptChildren(of: node)
    }

    // MARK: Failures

    /// `child` failed: handled in the next turn of the clock, once per
    /// component (later failures of the same component are dropped).
    func childFailed(_ child: any SupervisedChild, _ failure: ComponentFailure) {
        guard !hasGivenUp, child.isRunning, !child.isFailing, let context = supervising?.context else { return }
        guard !context.shutdown.isRequested else {
            context.logger.debug("\(failure) during the shutdown: not restarted.")
            return
        }
        child.isFailing = true
        let generation = child.generation
        guard let scheduler = context.scheduler else {
            handle(failure, of: child)
            return
        }
        _ = scheduler.schedule(after: .zero) { [weak self, weak child] in
            guard let self, let child, child.generation == generation, child.isFailing, child.isRunning else { return }
            handle(failure, of: child)
        }
    }

    /// Restarts what the strategy names, or gives up past the intensity.
    private func handle(_ failure: ComponentFailure, of child: any SupervisedChild) {
        guard !hasGivenUp, let node = supervising, let context = node.context else { return }
        guard !context.shutdown.isRequested else { return }
        let now = context.scheduler?.now ?? .zero
        recentRestarts.removeAll { now - $0.time >= intensity.within }
        guard recentRestarts.count < intensity.restarts else {
            giveUp(failure)
            return
        }
        let id = ObjectIdentifier(child)
        recentRestarts.append((now, id))
        let failures = recentRestarts.count(where: { $0.child == id })
        let delay = backoff.delay(afterFailures: failures, jitterUnit: context.randomUnit())
        let restarting = children(restartedWith: child)
        node.logger.warning("\(failure); restarting \(restarting.map(\.label).joined(separator: ", ")) in \(AppEvent.format(delay)).")
        for sibling in restarting.reversed() { sibling.stop() }
        for sibling in restarting {
            sibling.restart(after: delay) { [weak self, unowned sibling] count in
                self?.didRestart.send(Restart(child: sibling.label, count: count, failure: failure, delay: delay))
            }
        }
    }

    /// The children `strategy` restarts when `child` fails, in declaration
    /// order.
    private func children(restartedWith child: any SupervisedChild) -> [any SupervisedChild] {
        switch strategy {
        case .oneForOne:
            return [child]
        case .oneForAll:
            return children
        case .restForOne:
            guard let index = children.firstIndex(where: { $0 === child }) else { return [child] }
            return Array(children[index...])
        }
    }

    /// Past the intensity: stops every child, says so, and fails the
    /// supervising component (the supervisor above, or the app, handles it).
    private func giveUp(_ failure: ComponentFailure) {
        guard let node = supervising else { return }
        hasGivenUp = true
        let giveUp = GiveUp(supervisor: node.path, intensity: intensity, failure: failure)
        node.logger.error("\(giveUp)")
        for child in children.reversed() { child.stop() }
        didGiveUp.send(giveUp)
        node.fail(giveUp)
    }
}
