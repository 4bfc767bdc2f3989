/// The token an observation returns: cancel it to stop observing.
///
/// Tokens are discardable. An observer registered while a component's
/// `observers` runs (or inside another observer) is cancelled automatically
/// with its scope; keep the token only to stop earlier.
///
/// ```swift
/// let subscription = messages += { print($0) }
/// subscription.cancel()   // idempotent
/// ```
@MainActor
public struct Subscription {
    @usableFromInline let storage: (any AnyEmitterStorage)?
    @usableFromInline let id: UInt64
    /// The emitter's cancel, specialised for its value type where the
    /// observer was added (a plain function, no allocation), so cancelling
    /// does not run unspecialised generic code.
    @usableFromInline let cancelAction: (@MainActor (any AnyEmitterStorage, UInt64) -> Void)?

    /// A token that observes nothing, e.g. for an observation that was refused.
    @inlinable
    init() {
        storage = nil
        id = 0
        cancelAction = nil
    }

    // Inlinable, like the registration that makes it: a call into the
    // library per subscription would cost more than the token itself.
    @inlinable
    init(storage: any AnyEmitterStorage, id: UInt64, cancel: (@MainActor (any AnyEmitterStorage, UInt64) -> Void)? = nil) {
        self.storage = storage
        self.id = id
        self.cancelAction = cancel
    }

    /// Stops the observer. Safe to call more than once, and from inside any
    /// observer, including the cancelled one: it is not called again.
    // Consuming: the token's references go to the call as they are, with no
    // retain and release of the storage and the action around it.
    @inlinable
    public __consuming func cancel() {
        guard let storage else { return }
        if let cancelAction {
            cancelAction(storage, id)
        } else {
            storage.cancel(id: id)
        }
    }

    /// Whether the observer is still registered.
    public var isActive: Bool {
        storage?.contains(id: id) ?? false
    }
}
