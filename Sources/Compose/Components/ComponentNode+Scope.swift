extension ComponentNode {
    /// Runs `body` as this component's code, as if it ran in one of its
    /// observers: stores it writes send once, when it returns, and
    /// children are found from this component. For runtimes that call a
    /// component's closures from outside an emitter (a terminal's key
    /// bindings).
    package func withScope<R>(_ body: () throws -> R) rethrows -> R {
        try ObservationContext.withScope(self, body)
    }
}
