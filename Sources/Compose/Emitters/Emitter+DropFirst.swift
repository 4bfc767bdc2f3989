extension EmitterProtocol {
    /// An emitter that ignores the first `count` values this one sends after
    /// the call, then sends every value.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters") that
    /// starts with no last value: a value sent before the call is not counted.
    ///
    /// ```swift
    /// let ticks = Emitter<Int>()
    /// ticks.dropFirst(2) += { print($0) }
    /// ticks.send(1)   // nothing
    /// ticks.send(2)   // nothing
    /// ticks.send(3)   // prints 3
    /// ```
    ///
    /// - Parameter count: How many values to ignore; zero or less ignores none.
    /// - Returns: An emitter of the values after the first `count`.
    public func dropFirst(_ count: Int = 1) -> Emitter<Value> {
        derive { output in
            var remaining = Swift.max(0, count)
            return { value in
                if remaining > 0 {
                    remaining -= 1
                } else {
                    output.send(value)
                }
            }
        }
    }
}
