/// Observes the next emission only, then the observer is gone.
infix operator !+= : AssignmentPrecedence
/// Observes every emission, and at once with the last value if there is one.
infix operator ++= : AssignmentPrecedence
/// Observes `(new, previous)` for every emission that has a previous value.
infix operator ~+= : AssignmentPrecedence

/// Observes every emission. Sugar for ``Emitter/observe(_:)``.
///
/// A signal's observer is a closure with no parameter, which Swift accepts
/// where a function of one `Void` parameter is expected:
///
/// ```swift
/// let tick = SignalEmitter()
/// tick += { print("tick") }
/// ```
@MainActor @inlinable @discardableResult
public func += <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor (E.Value) -> Void
) -> Subscription {
    emitter.emitter.observe(handler)
}

/// Observes the next emission only. Sugar for ``Emitter/observeOnce(_:)``.
@MainActor @inlinable @discardableResult
public func !+= <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor (E.Value) -> Void
) -> Subscription {
    emitter.emitter.observeOnce(handler)
}

/// Observes every emission and, at once, the last value if there is one.
/// Sugar for ``Emitter/observeCurrent(_:)``.
@MainActor @inlinable @discardableResult
public func ++= <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor (E.Value) -> Void
) -> Subscription {
    emitter.emitter.observeCurrent(handler)
}

/// Observes `(new, previous)` for every emission that has a previous value.
/// Sugar for ``Emitter/observeChange(_:)``.
@MainActor @inlinable @discardableResult
public func ~+= <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor (E.Value, E.Value) -> Void
) -> Subscription {
    emitter.emitter.observeChange(handler)
}
