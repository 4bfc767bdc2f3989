extension Emitter {
    /// The component that owns this emitter (declares or adopted it), while
    /// it is bound: the component a loop resource fails (see
    /// ``ComponentNode/fail(_:)``).
    package var ownerNode: ComponentNode? {
        storage.owner
    }
}

extension EmitterProtocol {
    /// The component that owns this emitter (see ``Emitter/ownerNode``).
    package var ownerNode: ComponentNode? { emitter.ownerNode }
}
