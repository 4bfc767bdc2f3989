/// Observes the next emission only, then the observer is gone.
infix operator !+= : AssignmentPrecedence
/// Observes every emission, and at once with the last value if there is one.
infix operator ++= : AssignmentPrecedence
/// Observes `(new, previous)` for every emission that has a previous value.
infix operator ~+= : AssignmentPrecedence

/// Observes every emission. Sugar for ``Emitter/observe(_:)``.
@MainActor @inlinable @discardableResult
public func += <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor (E.Value) -> Void
) -> Subscription {
    emitter.emitter.observe(handler)
}

/// Observes every emission of a signal. Sugar for ``Emitter/observe(_:)``.
@MainActor @inlinable @discardableResult
public func += <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor () -> Void
) -> Subscription where E.Value == Void {
    emitter.emitter.observeSignal(once: false, handler)
}

/// Observes the next emission only. Sugar for ``Emitter/observeOnce(_:)``.
@MainActor @inlinable @discardableResult
public func !+= <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor (E.Value) -> Void
) -> Subscription {
    emitter.emitter.observeOnce(handler)
}

/// Observes the next signal only. Sugar for ``Emitter/observeOnce(_:)``.
@MainActor @inlinable @discardableResult
public func !+= <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor () -> Void
) -> Subscription where E.Value == Void {
    emitter.emitter.observeSignal(once: true, handler)
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

/// Observes every signal and, at once, if it was ever sent.
/// Sugar for ``Emitter/observeCurrent(_:)``.
@MainActor @inlinable @discardableResult
public func ++= <E: EmitterProtocol>(
    emitter: E,
    handler: @escaping @MainActor () -> Void
) -> Subscription where E.Value == Void {
    emitter.emitter.observeCurrentSignal(handler)
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
