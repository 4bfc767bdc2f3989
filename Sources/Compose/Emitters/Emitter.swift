/// Sends values to the closures that observe it.
///
/// An emitter is a small struct over a shared reference box: copies of an
/// emitter, and of the component that stores it, are the same emitter. It
/// remembers the last value it sent (``lastValue``).
///
/// ```swift
/// let printMessage = Emitter<String>()
///
/// printMessage += { message in
///     print(message)
/// }
///
/// printMessage.send("A simple message.")
/// ```
///
/// Everything about an emitter runs on the main actor. From another thread,
/// `await emitter.send(value)`; delivery happens on the main actor.
///
/// Sending is reentrant: an observer may send again, subscribe, cancel any
/// subscription or destroy the component that owns the emitter. Observers
/// added during a send are not called by that send; observers cancelled
/// during it are not called after their cancellation.
@MainActor
public struct Emitter<Value>: EmitterProtocol, Sendable {
    @usableFromInline
    let storage: EmitterStorage<Value>

    /// Creates an emitter with no observers and no last value.
    nonisolated public init() {
        storage = EmitterStorage()
    }

    @inlinable
    public var emitter: Emitter<Value> { self }

    /// Calls every current observer with `value`, in the order they were added.
    @inlinable
    public func send(_ value: Value) {
        storage.send(value)
    }

    /// Sends `value` without keeping it as ``lastValue``: for streams whose
    /// values should not outlive their dispatch, such as chunks viewing a
    /// reused read buffer. An emitter sent to only this way has no last value.
    @inlinable
    package func sendWithoutKeeping(_ value: Value) {
        storage.dispatch(value)
    }

    /// The last value sent, or `nil` if nothing was sent yet.
    @inlinable
    public var lastValue: Value? {
        storage.lastValue
    }

    /// How many observers are registered.
    @inlinable
    public var observerCount: Int {
        storage.observerCount
    }

    /// Calls `handler` for every value sent from now on. The `+=` operator.
    @inlinable @discardableResult
    public func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
        storage.add(once: false, Handler(handler))
    }

    /// Calls `handler` for the next value only. The `!+=` operator.
    @inlinable @discardableResult
    public func observeOnce(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
        storage.add(once: true, Handler(handler))
    }

    /// Calls `handler` at once with the last value, if there is one, then for
    /// every value sent. The `++=` operator.
    @inlinable @discardableResult
    public func observeCurrent(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
        let subscription = storage.add(once: false, Handler(handler))
        if subscription.isActive, let last = storage.lastValue {
            handler(last)
        }
        return subscription
    }

    /// Calls `handler` with `(new, previous)` for every value sent that has a
    /// previous one. The `~+=` operator.
    @inlinable @discardableResult
    public func observeChange(_ handler: @escaping @MainActor (Value, Value) -> Void) -> Subscription {
        var previous = storage.lastValue
        return storage.add(once: false, Handler { value in
            if let old = previous { handler(value, old) }
            previous = value
        })
    }

    /// Registers an observer that is told when it is removed for any reason
    /// (cancelled, or its scope or the emitter's owner destroyed).
    @discardableResult
    package func observe(
        _ handler: @escaping @MainActor (Value) -> Void,
        onCancel: @escaping @MainActor () -> Void
    ) -> Subscription {
        storage.add(once: false, Handler(handler, onCancel: onCancel))
    }

    /// Call syntax for subscribing, a synonym of `+=`:
    /// `logIn.openSignUp { router.replace(\Self.signUp) }`.
    @inlinable @discardableResult
    public func callAsFunction(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
        observe(handler)
    }
}

/// The original Compose name of ``Emitter``.
public typealias ValueEmitter<Value> = Emitter<Value>

/// An emitter that carries no value, only the fact that it was sent.
///
/// ```swift
/// let printHello = SignalEmitter()
/// printHello += { print("Hello, world!") }
/// printHello.send()
/// ```
public typealias SignalEmitter = Emitter<Void>

extension Emitter where Value == Void {
    /// Sends the signal.
    @inlinable
    public func send() {
        storage.send(())
    }

    /// Whether the signal was ever sent.
    public var wasSent: Bool {
        storage.lastValue != nil
    }
}
