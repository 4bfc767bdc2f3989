// Sending through an emitter that is not retained for the send, for a
// sender on a hot path that proves, where it sends, that something else
// keeps the emitter alive until the send returns (a socket's read
// callback: see `StreamHandle.didRead` in ComposeApp). Saves a retain and
// a release of the storage per send.
//
// The storage travels as `Unmanaged<AnyObject>`, not as a type of its own:
// a `package` generic type's methods are not specialised in the modules
// that call them (Swift 6.3), and this must be.

extension Emitter {
    /// The emitter's storage, unretained, for
    /// ``sendWithoutKeeping(_:unretained:)``. The caller holds the emitter
    /// strongly elsewhere.
    @inlinable
    package var unretained: Unmanaged<AnyObject> {
        .passUnretained(storage)
    }

    /// ``sendWithoutKeeping(_:)`` to the emitter whose ``unretained``
    /// storage is `storage`, borrowed for the send: the caller proves it
    /// outlives the send. The storage is an `EmitterStorage<Value>` (made
    /// by ``unretained``), which `unsafeDowncast` checks in debug builds.
    @inlinable
    package static func sendWithoutKeeping(_ value: Value, unretained storage: Unmanaged<AnyObject>) {
        storage.withBorrowed { unsafeDowncast($0, to: EmitterStorage<Value>.self).dispatchInlined(value) }
    }
}
