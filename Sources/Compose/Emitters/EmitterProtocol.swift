/// What every emitter-like type offers: a way to reach the ``Emitter`` that
/// carries its values. Operators (`+=`, `!+=`, `++=`, `~+=`) and combinators
/// (`map`, `filter`, `debounce`, ...) are written against this protocol.
@MainActor
public protocol EmitterProtocol<Value> {
    /// The type of the values sent.
    associatedtype Value

    /// The emitter that carries this value stream.
    var emitter: Emitter<Value> { get }
}
