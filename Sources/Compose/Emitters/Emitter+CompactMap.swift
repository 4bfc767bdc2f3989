extension EmitterProtocol {
    /// An emitter that sends `transform(value)` for every value of this one
    /// for which it is not `nil`.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters"). If
    /// this emitter already has a last value and `transform` gives a value
    /// for it, the result starts with that as its last value, without sending
    /// it, so `++=` on the result replays it.
    ///
    /// ```swift
    /// let input = Emitter<String>()
    /// let numbers = input.compactMap { Int($0) }
    /// numbers += { print($0 * 2) }
    /// input.send("21")    // prints 42
    /// input.send("abc")   // nothing
    /// ```
    ///
    /// - Parameter transform: Called on the main actor for every value sent,
    ///   and once at creation for the last value, if there is one.
    /// - Returns: An emitter of the non-`nil` results.
    public func compactMap<U>(_ transform: @escaping @MainActor (Value) -> U?) -> Emitter<U> {
        derive(primedWith: emitter.lastValue.flatMap(transform)) { output in
            { value in
                if let result = transform(value) { output.send(result) }
            }
        }
    }
}
