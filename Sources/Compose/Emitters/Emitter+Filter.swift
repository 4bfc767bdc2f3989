extension EmitterProtocol {
    /// An emitter that sends the values of this one for which `isIncluded`
    /// returns `true`, and drops the others.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters"). If
    /// this emitter already has a last value and it is included, the result
    /// starts with it as its last value, without sending it, so `++=` on the
    /// result replays it.
    ///
    /// ```swift
    /// let temperature = Emitter<Int>()
    /// let fever = temperature.filter { $0 >= 38 }
    /// fever += { print("Fever: \($0)") }
    /// temperature.send(37)   // nothing
    /// temperature.send(39)   // prints "Fever: 39"
    /// ```
    ///
    /// - Parameter isIncluded: Called on the main actor for every value sent,
    ///   and once at creation for the last value, if there is one.
    /// - Returns: An emitter of the included values.
    public func filter(_ isIncluded: @escaping @MainActor (Value) -> Bool) -> Emitter<Value> {
        let start = emitter.lastValue.flatMap { isIncluded($0) ? .some($0) : .none }
        return derive(primedWith: start) { output in
            { value in
                if isIncluded(value) { output.send(value) }
            }
        }
    }
}
