/// An observer's closure as ``EmitterStorage`` keeps it.
///
/// A closure stored directly in a generic array is kept at the array's
/// most general abstraction (value and result both passed indirectly), so
/// every call would go through a reabstraction thunk; a closure in a field
/// of this struct keeps the field's abstraction (the value indirect, the
/// `Void` result direct), the one the observer closure already has, so a
/// call is one indirect call.
@usableFromInline
struct ObserverBody<Value> {
    @usableFromInline
    let call: @MainActor (Value) -> Void

    @inlinable
    init(_ call: @escaping @MainActor (Value) -> Void) {
        self.call = call
    }
}

// A signal's observers are `(Void) -> Void` closures like any other
// emitter's: Swift accepts a closure literal with no parameter there, and
// forms it at this abstraction directly. (An earlier `ObserverBody(signal:)`
// bit-cast a `() -> Void` closure to this type: undefined behaviour, which
// the optimiser exposed once the closure and its call met in one function.)

/// What an observer registers: its closure, and optionally a hook.
@usableFromInline
struct Handler<Value> {
    @usableFromInline
    let body: ObserverBody<Value>
    /// Called once when the observer is removed for any reason (used by
    /// ``Emitter/values`` to finish its stream).
    @usableFromInline
    let onCancel: (@MainActor () -> Void)?

    @inlinable
    init(_ body: @escaping @MainActor (Value) -> Void, onCancel: (@MainActor () -> Void)? = nil) {
        self.body = ObserverBody(body)
        self.onCancel = onCancel
    }

    @inlinable
    init(body: ObserverBody<Value>) {
        self.body = body
        self.onCancel = nil
    }
}

/// The type-erased face of an emitter's storage, for tokens and nodes.
@MainActor
@usableFromInline
protocol AnyEmitterStorage: AnyObject {
    func cancel(id: UInt64)
    func contains(id: UInt64) -> Bool
    func cancelAll()
}
