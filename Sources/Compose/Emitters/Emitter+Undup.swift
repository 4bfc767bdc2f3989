extension EmitterProtocol {
    /// An emitter that sends the values of this one except those equal, by
    /// `areEqual`, to the value it sent just before (consecutive duplicates).
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters"). If
    /// this emitter already has a last value, the result starts with it as
    /// its last value, without sending it, and the first value sent is
    /// compared with it: `state.map(\.title).undup() ++= { ... }` runs once
    /// with the current title, then only when the title changes.
    ///
    /// ```swift
    /// let word = Emitter<String>()
    /// let changed = word.undup { $0.lowercased() == $1.lowercased() }
    /// changed += { print($0) }
    /// word.send("Hi")   // prints "Hi"
    /// word.send("HI")   // nothing
    /// word.send("Bye")  // prints "Bye"
    /// ```
    ///
    /// - Parameter areEqual: Called on the main actor with the previous and
    ///   the new value; `true` drops the new one.
    /// - Returns: An emitter without consecutive duplicates.
    public func undup(by areEqual: @escaping @MainActor (Value, Value) -> Bool) -> Emitter<Value> {
        let start = emitter.lastValue
        return derive(primedWith: start) { output in
            var previous = start
            return { value in
                if let previous, areEqual(previous, value) { return }
                previous = value
                output.send(value)
            }
        }
    }
}

extension EmitterProtocol where Value: Equatable {
    /// An emitter that sends the values of this one except those equal to the
    /// value it sent just before (consecutive duplicates).
    ///
    /// Same as ``undup(by:)`` with `==`: a derived emitter that starts with
    /// this emitter's last value, if any, and compares the first value with it.
    ///
    /// ```swift
    /// let count = Emitter<Int>()
    /// count.undup() += { print($0) }
    /// count.send(1)   // prints 1
    /// count.send(1)   // nothing
    /// count.send(2)   // prints 2
    /// ```
    ///
    /// - Returns: An emitter without consecutive duplicates.
    public func undup() -> Emitter<Value> {
        undup { $0 == $1 }
    }
}
