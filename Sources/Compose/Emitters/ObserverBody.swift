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

/// A signal observer's closure at its own abstraction: no parameter.
@usableFromInline
struct SignalBody {
    @usableFromInline
    let call: @MainActor () -> Void

    @inlinable
    init(_ call: @escaping @MainActor () -> Void) {
        self.call = call
    }
}

extension ObserverBody where Value == Void {
    /// A signal observer's own closure, not wrapped in a `(Void) -> Void`
    /// closure that would call it (a second allocation at subscription, a
    /// second indirect call at every send).
    ///
    /// Safe because the two closure types differ only by a parameter the
    /// callee ignores: `call` is invoked as a Swift function taking the
    /// address of the (empty) value first and its context in the dedicated
    /// self register; a `() -> Void` closure takes only the context, which
    /// is in the same register, so the extra leading argument (a register
    /// on x86-64 and arm64, the platforms Compose runs on) is never read.
    /// The result (`Void`, nothing returned) and the context's ownership
    /// (guaranteed, the caller keeps it) are the same. Both structs are one
    /// thick function value, so the layouts match.
    @inlinable
    init(signal: @escaping @MainActor () -> Void) {
        self = unsafeBitCast(SignalBody(signal), to: ObserverBody<Void>.self)
    }
}

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

extension Handler where Value == Void {
    /// A signal observer, registered without a wrapping closure.
    @inlinable
    init(signal: @escaping @MainActor () -> Void) {
        self.init(body: ObserverBody(signal: signal))
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
