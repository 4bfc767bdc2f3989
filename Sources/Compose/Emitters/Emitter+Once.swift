extension EmitterProtocol {
    /// An emitter that sends only the first value this one sends after the
    /// call, then never again.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters") that
    /// starts with no last value. Its upstream subscription ends right after
    /// the first value is delivered, and with it every observer of the result:
    /// `for await v in emitter.once().values` yields one value and finishes.
    /// `++=` on the result after that still replays the value it sent.
    ///
    /// ```swift
    /// let connected = SignalEmitter()
    /// connected.once() += { print("First connection") }
    /// connected.send()   // prints "First connection"
    /// connected.send()   // nothing
    /// ```
    ///
    /// - Returns: An emitter of the first value only.
    public func once() -> Emitter<Value> {
        derive(once: true) { output in
            { value in output.send(value) }
        }
    }
}
