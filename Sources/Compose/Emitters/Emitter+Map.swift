extension EmitterProtocol {
    /// An emitter that sends `transform(value)` for every value this one sends.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters"): it
    /// observes this emitter from the moment it is created. If this emitter
    /// already has a last value, the result starts with `transform(lastValue)`
    /// as its last value, without sending it, so `++=` on the result replays it.
    ///
    /// ```swift
    /// let name = Emitter<String>()
    /// let greeting = name.map { "Hello, \($0)!" }
    /// greeting += { print($0) }
    /// name.send("Ada")   // prints "Hello, Ada!"
    /// ```
    ///
    /// - Parameter transform: Called on the main actor for every value sent,
    ///   and once at creation for the last value, if there is one.
    /// - Returns: An emitter of the transformed values.
    public func map<U>(_ transform: @escaping @MainActor (Value) -> U) -> Emitter<U> {
        derive(primedWith: emitter.lastValue.map(transform)) { output in
            { value in output.send(transform(value)) }
        }
    }
}
