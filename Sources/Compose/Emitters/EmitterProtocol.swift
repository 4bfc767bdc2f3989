/// What every emitter-like type offers: a way to reach the ``Emitter`` that
/// carries its values. Operators (`+=`, `!+=`, `++=`, `~+=`) and combinators
/// (`map`, `filter`, `debounce`, ...) are written against this protocol.
///
/// ## Derived emitters
///
/// Every combinator (``map(_:)``, ``filter(_:)``, ``debounce(for:scheduler:)``,
/// ``merge(_:)``, ...) returns a *derived* ``Emitter``: an ordinary emitter,
/// observable with the same operators and chainable, fed by its upstream.
/// The same rules hold for all of them:
///
/// - **Eager.** Creating a derived emitter subscribes to its upstream at once,
///   as `upstream += { ... }` would (no replay of the upstream's last value),
///   whether or not anything observes the result yet. Values sent before the
///   call are not seen, except as the starting last value described below.
/// - **Scoped like any observer.** That upstream subscription joins the
///   observation scope in effect: created inside a component's `observers`,
///   it is cancelled with that component; created inside an observer
///   closure, with that observer's scope. It is also cancelled when the
///   upstream's owning component is destroyed. Observing an ancestor's
///   emitter through a combinator is the same mistake as observing it
///   directly: it is reported as a diagnostic and the result never sends.
/// - **Ends with its upstream.** When the upstream subscription is removed for
///   any reason, the derived emitter never sends again: its pending scheduled
///   deliveries are cancelled and its own observers are removed (so a
///   `values` sequence over it finishes, and `next()` returns `nil`). For
///   ``merge(_:)`` and ``combineLatest(_:)`` this happens when every upstream
///   subscription has been removed.
/// - **Owned like its upstream.** A derived emitter is owned by the component
///   that owns its upstream (none for `merge` and `combineLatest`), so the
///   rule "observe your own and your descendants' emitters" applies to it
///   unchanged.
/// - **Starting value.** ``map(_:)``, ``filter(_:)``, ``compactMap(_:)``,
///   ``undup()`` and ``combineLatest(_:)`` start with a last value derived
///   from their upstreams' last values (transformed, if it passes the
///   predicate, if all are present), set without sending anything, so that
///   `++=` on the result replays it. The others start with none.
/// - **Lifetime.** The upstream keeps the derived emitter alive while the
///   subscription lasts, so `emitter.map { ... } += { ... }` works without
///   storing the result. Closures run on the main actor, synchronously inside
///   the upstream's send, except for the time-based combinators, which
///   deliver from their ``Scheduler``.
/// - A derived emitter is a plain ``Emitter``: `send` on it reaches its
///   observers directly and goes nowhere upstream.
@MainActor
public protocol EmitterProtocol<Value> {
    /// The type of the values sent.
    associatedtype Value

    /// The emitter that carries this value stream.
    var emitter: Emitter<Value> { get }
}
