extension ServiceRegistry {
    /// How starting the services ended.
    package enum StartOutcome: Sendable, Equatable {
        /// Every service created at start has started: create the root.
        case started
        /// A dependency is missing or circular, or a `start()` threw (each
        /// reported): stop what started and exit with
        /// ``ServiceRegistry/startFailureExitStatus``.
        case failed
        /// A shutdown was requested meanwhile: stop what started and exit
        /// as requested.
        case interrupted
    }

    /// Starts the app's services (see ``ServiceRegistry``, "Lifecycle"),
    /// then calls `completion` on the main actor: at once when no `start()`
    /// suspends, later otherwise. The runtime creates the root after
    /// ``StartOutcome/started``, and calls ``stop(within:_:)`` otherwise.
    package func start(_ completion: @escaping @MainActor (StartOutcome) -> Void) {
        guard phase == .registering else { return }
        phase = .starting
        guard dependenciesAreSound() else {
            completion(.failed)
            return
        }
        isPlanning = true
        for id in creationPlan() {
            if let registration = registrations[id], instances[id] == nil {
                _ = instance(of: registration.type, for: nil)
            }
        }
        isPlanning = false
        guard problems == 0 else {
            completion(.failed)
            return
        }
        let services = startOrder()
        guard !services.isEmpty else {
            phase = .running
            completion(.started)
            return
        }
        startTask = Task.immediate { [self] in
            for (id, service) in services {
                guard !isInterrupted else { return completion(.interrupted) }
                do {
                    try await service.start()
                } catch {
                    if isInterrupted, error is CancellationError { return completion(.interrupted) }
                    reportStartFailure(of: id, error, consequence: "The app does not start: the services started are stopped and it exits with status \(Self.startFailureExitStatus).")
                    return completion(.failed)
                }
                started.append((id, service))
            }
            guard !isInterrupted else { return completion(.interrupted) }
            phase = .running
            completion(.started)
        }
    }

    /// A shutdown was requested while the services start: cancels the task
    /// starting them (the start then ends as
    /// ``StartOutcome/interrupted``).
    package func cancelStart() {
        startTask?.cancel()
    }

    private var isInterrupted: Bool {
        Task.isCancelled || context?.shutdown.isRequested == true
    }

    /// Stops the started services in reverse order, each within an equal
    /// share of what is left of `budget` (one share kept back), then calls
    /// `completion` on the main actor (at once when no `stop()` suspends).
    package func stop(within budget: Duration, _ completion: @escaping @MainActor () -> Void) {
        guard phase != .stopping, phase != .stopped else { return completion() }
        phase = .stopping
        startTask?.cancel()
        for task in firstUseStarts.values { task.cancel() }
        firstUseStarts = [:]
        let services = started.reversed().map { (name: name(of: $0.id), service: $0.service) }
        started = []
        let scheduler = context?.scheduler
        let sequence = StopSequence(
            services: services,
            scheduler: scheduler,
            end: scheduler.map { $0.now + budget },
            report: { [weak self] in self?.report($0) },
            completion: { [weak self] in
                self?.phase = .stopped
                completion()
            }
        )
        sequence.next()
    }

    /// Starts a service created on first use (after the services created
    /// at start have been planned): at once, without waiting for it.
    func startOnFirstUse(_ id: ObjectIdentifier, _ service: any ServiceLifecycle) {
        startingOnFirstUse.insert(id)
        let task = Task.immediate { [self] in
            defer {
                startingOnFirstUse.remove(id)
                firstUseStarts[id] = nil
            }
            do {
                try await service.start()
            } catch {
                guard phase != .stopping, phase != .stopped else { return }
                reportStartFailure(of: id, error, consequence: "The app shuts down with status \(Self.startFailureExitStatus).")
                context?.shutdown.request(status: Self.startFailureExitStatus, reason: "\(name(of: id)) failed to start")
                return
            }
            if phase == .stopping || phase == .stopped {
                // Started after the others stopped: stop it at once.
                await service.stop()
            } else {
                started.append((id, service))
            }
        }
        // Kept (to be cancelled at shutdown) only while it runs.
        if startingOnFirstUse.contains(id) { firstUseStarts[id] = task }
    }

    private func reportStartFailure(of id: ObjectIdentifier, _ error: any Error, consequence: String) {
        report(Diagnostic(.serviceStartFailed, "\(name(of: id)).start() threw \(error). \(consequence)"))
    }

    // MARK: Ordering

    /// Checks the declared dependencies: each one registered, no circle.
    /// Reports every problem; returns whether there was none.
    private func dependenciesAreSound() -> Bool {
        var sound = true
        for id in order {
            guard let registration = registrations[id] else { continue }
            for dependency in registration.dependencies where !isRegistered(dependency) {
                sound = false
                let name = Self.name(of: registration.type), missing = Self.name(of: dependency)
                report(Diagnostic(.serviceDependency, "\(name) depends on \(missing), which is not registered. Register \(missing) too (`services.register(\(missing).self) { ... }`), or remove it from the `dependsOn:` of \(name)."))
            }
        }
        var state: [ObjectIdentifier: Bool] = [:]   // false: on the path, true: done
        var path: [ObjectIdentifier] = []
        func visit(_ id: ObjectIdentifier) {
            if let done = state[id] {
                if !done, let first = path.firstIndex(of: id) {
                    sound = false
                    let circle = (path[first...] + [id]).map { name(of: $0) }.joined(separator: " → ")
                    report(Diagnostic(.serviceDependency, "Services depend on each other in a circle: \(circle). The app does not start; remove one of these from the `dependsOn:` of the service before it."))
                }
                return
            }
            state[id] = false
            path.append(id)
            for dependency in registrations[id]?.dependencies ?? [] where isRegistered(dependency) {
                visit(ObjectIdentifier(dependency))
            }
            path.removeLast()
            state[id] = true
        }
        for id in order { visit(id) }
        return sound
    }

    /// The services to create at start (those created at start, those
    /// already created, and what they depend on), dependencies first.
    private func creationPlan() -> [ObjectIdentifier] {
        let roots = order.filter { registrations[$0]?.creation == .atStart || instances[$0] != nil }
        return dependencyOrder(from: roots) { [self] id in
            (registrations[id]?.dependencies ?? []).map(ObjectIdentifier.init)
        }
    }

    /// The created services that have a lifecycle, dependencies first
    /// (declared ones, and those their factories resolved).
    private func startOrder() -> [(ObjectIdentifier, any ServiceLifecycle)] {
        let ids = dependencyOrder(from: order.filter { instances[$0] != nil }) { [self] id in
            (registrations[id]?.dependencies ?? []).map(ObjectIdentifier.init) + (resolvedByFactory[id] ?? [])
        }
        return ids.compactMap { id in (instances[id] as? any ServiceLifecycle).map { (id, $0) } }
    }

    /// `roots` and what they depend on, each after its dependencies (a
    /// depth-first post-order; circles were ruled out before).
    private func dependencyOrder(
        from roots: [ObjectIdentifier],
        dependencies: (ObjectIdentifier) -> [ObjectIdentifier]
    ) -> [ObjectIdentifier] {
        var result: [ObjectIdentifier] = []
        var seen: Set<ObjectIdentifier> = []
        func visit(_ id: ObjectIdentifier) {
            guard seen.insert(id).inserted else { return }
            for dependency in dependencies(id) { visit(dependency) }
            result.append(id)
        }
        for id in roots { visit(id) }
        return result
    }
}

/// Stops services one after the other, each within its share of the time
/// left before a deadline.
@MainActor
private final class StopSequence {
    /// One service stopping: whichever of its stop and its timer ends
    /// first settles it.
    final class Step {
        var isSettled = false
        var timer: ScheduledAction?
        var task: Task<Void, Never>?
    }

    private var services: [(name: String, service: any ServiceLifecycle)]
    private let scheduler: (any Scheduler)?
    private let end: Duration?
    private let report: @MainActor (Diagnostic) -> Void
    private let completion: @MainActor () -> Void

    init(
        services: [(name: String, service: any ServiceLifecycle)],
        scheduler: (any Scheduler)?,
        end: Duration?,
        report: @escaping @MainActor (Diagnostic) -> Void,
        completion: @escaping @MainActor () -> Void
    ) {
        self.services = services
        self.scheduler = scheduler
        self.end = end
        self.report = report
        self.completion = completion
    }

    /// Stops the next service, or completes.
    func next() {
        guard !services.isEmpty else { return completion() }
        let (name, service) = services.removeFirst()
        let step = Step()
        if let scheduler, let end {
            // An equal share for this one and each left, and one kept back
            // for the rest of the shutdown.
            let share = max(end - scheduler.now, .zero) / (services.count + 2)
            step.timer = scheduler.schedule(after: share) { [self] in
                guard !step.isSettled else { return }
                step.isSettled = true
                step.task?.cancel()
                report(Diagnostic(.serviceStopOverran, "\(name).stop() did not finish within \(share), its share of the shutdown deadline: it was cancelled, and the services left stop now."))
                next()
            }
        }
        step.task = Task.immediate { [self] in
            await service.stop()
            guard !step.isSettled else { return }
            step.isSettled = true
            if let timer = step.timer { scheduler?.cancel(timer) }
            next()
        }
    }
}
