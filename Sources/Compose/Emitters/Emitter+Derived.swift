// The machinery shared by the combinators. The rules it implements are
// documented once, on ``EmitterProtocol`` ("Derived emitters").

extension EmitterProtocol {
    /// Creates a derived emitter fed by this one.
    ///
    /// Subscribes to this emitter at once (plain `+=`, in the scope in effect)
    /// with the observer `makeHandler` returns for the new emitter. When that
    /// subscription is removed for any reason, `onUpstreamEnd` runs, then every
    /// observer of the derived emitter is cancelled.
    ///
    /// - Parameters:
    ///   - prime: The derived emitter's starting last value, set without sending.
    ///   - once: Observe the next emission only (`!+=`) instead of every one.
    ///   - onUpstreamEnd: Releases what the combinator holds (scheduled actions).
    ///   - makeHandler: Given the derived emitter, the observer of this one.
    func derive<Output>(
        primedWith prime: Output? = nil,
        once: Bool = false,
        onUpstreamEnd: (@MainActor () -> Void)? = nil,
        _ makeHandler: (Emitter<Output>) -> @MainActor (Value) -> Void
    ) -> Emitter<Output> {
        let upstream = emitter
        let output = Emitter<Output>()
        output.storage.inheritedOwner = upstream.storage.ruleOwner
        if let prime { output.storage.prime(prime) }
        let storage = output.storage
        let handler = Handler(makeHandler(output), onCancel: {
            onUpstreamEnd?()
            storage.cancelAll()
        })
        _ = upstream.storage.add(once: once, handler)
        return output
    }
}

/// Links a derived emitter to several upstreams (`merge`, `combineLatest`):
/// the derived emitter ends once every upstream subscription has been removed.
@MainActor
final class UpstreamLinks {
    private var live = 0
    private let ended: @MainActor () -> Void

    /// - Parameter output: The derived emitter whose observers are cancelled
    ///   when the last upstream subscription goes.
    init<Output>(ending output: Emitter<Output>) {
        let storage = output.storage
        ended = { storage.cancelAll() }
    }

    /// Subscribes `body` to `upstream` in the scope in effect.
    func observe<Value>(_ upstream: Emitter<Value>, _ body: @escaping @MainActor (Value) -> Void) {
        let subscription = upstream.observe(body, onCancel: { [self] in
            live -= 1
            if live == 0 { ended() }
        })
        // A refused subscription (ancestor observation) never reports its end.
        if subscription.isActive { live += 1 }
    }
}
