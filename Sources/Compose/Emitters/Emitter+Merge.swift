extension EmitterProtocol {
    /// An emitter that sends every value this one and `others` send, in the
    /// order they are sent.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters") with no
    /// owner and no starting last value. It ends when every one of its
    /// upstream subscriptions has been removed. An emitter given twice is
    /// observed twice, so its values arrive twice.
    ///
    /// ```swift
    /// let saveButton = SignalEmitter()
    /// let saveShortcut = SignalEmitter()
    /// saveButton.merge(saveShortcut) += { print("Save") }
    /// saveShortcut.send()   // prints "Save"
    /// ```
    ///
    /// - Parameter others: The emitters to merge with this one.
    /// - Returns: An emitter of every value of all of them.
    public func merge(_ others: any EmitterProtocol<Value>...) -> Emitter<Value> {
        Emitter.merging([emitter] + others.map { $0.emitter })
    }
}

extension Emitter {
    /// An emitter that sends every value the given emitters send, in the order
    /// they are sent: `Emitter.merge(a, b, c)` is `a.merge(b, c)`.
    ///
    /// ```swift
    /// let merged = Emitter.merge(mouseClicks, keyPresses, touches)
    /// merged += { event in handle(event) }
    /// ```
    ///
    /// - Parameter emitters: The emitters to merge.
    /// - Returns: An emitter of every value of all of them; one that never
    ///   sends if `emitters` is empty.
    public static func merge(_ emitters: any EmitterProtocol<Value>...) -> Emitter<Value> {
        merging(emitters.map { $0.emitter })
    }

    static func merging(_ upstreams: [Emitter<Value>]) -> Emitter<Value> {
        let output = Emitter<Value>()
        let links = UpstreamLinks(ending: output)
        for upstream in upstreams {
            links.observe(upstream) { value in output.send(value) }
        }
        return output
    }
}
