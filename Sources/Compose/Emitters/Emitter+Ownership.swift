extension ComponentNode {
    /// Makes this node the owner of `emitter`, as if the component had
    /// declared it: the ancestor-observation rule applies to it, and
    /// destroying the component cancels every observer of it. For
    /// ``ComponentAttachment`` types that offer emitters (timers, sockets).
    /// An emitter keeps its first owner.
    ///
    /// ```swift
    /// node.adopt(timer)   // a LoopTimer stored outside the component
    /// ```
    public func adopt(_ emitter: some EmitterProtocol) {
        emitter.emitter.storage.claim(by: self)
    }
}

extension Emitter {

    /// The app context of the component that owns this emitter (declares or
    /// adopted it), while that component is bound: how a resource stored in
    /// a component finds its app's loop and clock.
    public var ownerContext: AppContext? {
        storage.ruleOwner?.context
    }

    /// Cancels every observer of this emitter (for example when the resource
    /// behind it is closed for good).
    public func removeAllObservers() {
        storage.cancelAll()
    }
}
