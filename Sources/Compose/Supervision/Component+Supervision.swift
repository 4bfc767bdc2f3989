extension Component {
    /// Reports that this component failed: the ``Supervisor`` above it
    /// restarts the ``Supervised`` child that holds it, after its backoff;
    /// with no supervisor above, the app shuts down with
    /// ``Supervisor/failureExitStatus``. The failure is handled in the next
    /// turn of the app's clock, not inside this call.
    ///
    /// ```swift
    /// heartbeat.debounce(for: .seconds(30)) += { _ in
    ///     fail(WorkerError.stalled)   // no beat for 30 s: restart
    /// }
    /// ```
    ///
    /// - Parameter error: What went wrong (carried by the
    ///   ``ComponentFailure`` the supervisor's emitters report).
    public func fail(_ error: any Error) {
        node?.fail(error)
    }

    /// Starts an async task that belongs to this component: it is cancelled
    /// when the component is destroyed (a restart, a container dropping
    /// it, the app's shutdown), and an error it throws is a failure of the
    /// component (see ``fail(_:)``) — except `CancellationError`, and
    /// anything thrown once the task was cancelled.
    ///
    /// ```swift
    /// tick += {
    ///     task {
    ///         try await Application.clock.sleep(for: .seconds(1))
    ///         try await index.refresh()   // throws: the indexer restarts
    ///     }
    /// }
    /// ```
    ///
    /// The task runs on the main actor with the app's context as
    /// ``AppContext/current``; it starts at once, up to its first
    /// suspension. Called on a component that is not part of a bound tree,
    /// it reports a diagnostic and runs nothing.
    ///
    /// With no ``Supervised`` ancestor, a thrown error ends the app (status
    /// ``Supervisor/failureExitStatus``): in a component that must not take
    /// the app down with it (one per connection, say), catch what the work
    /// throws inside the task.
    ///
    /// - Parameter body: The task's work.
    /// - Returns: The task, to cancel it sooner or await it.
    @discardableResult
    public func task(_ body: @escaping @MainActor () async throws -> Void) -> Task<Void, Never> {
        guard let node, !node.isDestroyed else { return Task {} }
        return ComponentTasks.of(node).start(body)
    }
}
