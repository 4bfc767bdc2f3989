extension EmitterProtocol {
    /// An emitter of pairs: once both this emitter and `other` have a value,
    /// it sends `(latest of this, latest of other)` every time either sends.
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters") with no
    /// owner. The last values the two emitters already have when it is
    /// created count as their latest values: if both have one, the result
    /// starts with that pair as its last value (without sending it) and the
    /// next value of either is paired at once. It ends when both upstream
    /// subscriptions have been removed; until then, the remaining one keeps
    /// pairing its values with the other's latest.
    ///
    /// ```swift
    /// let user = Emitter<String>()
    /// let room = Emitter<String>()
    /// user.combineLatest(room) += { user, room in print("\(user) in \(room)") }
    /// user.send("Ada")      // nothing yet: no room
    /// room.send("lobby")    // prints "Ada in lobby"
    /// user.send("Grace")    // prints "Grace in lobby"
    /// ```
    ///
    /// - Parameter other: The emitter to combine with this one.
    /// - Returns: An emitter of `(Value, Other.Value)` pairs.
    public func combineLatest<Other: EmitterProtocol>(
        _ other: Other
    ) -> Emitter<(Value, Other.Value)> {
        let first = emitter
        let second = other.emitter
        var latestFirst = first.lastValue
        var latestSecond = second.lastValue
        let output = Emitter<(Value, Other.Value)>()
        if let a = latestFirst, let b = latestSecond { output.storage.prime((a, b)) }
        let links = UpstreamLinks(ending: output)
        links.observe(first) { value in
            latestFirst = value
            if let b = latestSecond { output.send((value, b)) }
        }
        links.observe(second) { value in
            latestSecond = value
            if let a = latestFirst { output.send((a, value)) }
        }
        return output
    }

    /// An emitter of triples: once this emitter, `second` and `third` all
    /// have a value, it sends the latest of the three every time any sends.
    ///
    /// The three-emitter form of ``combineLatest(_:)``, with the same rules.
    ///
    /// ```swift
    /// width.combineLatest(height, depth) += { w, h, d in print(w * h * d) }
    /// ```
    ///
    /// - Parameters:
    ///   - second: The second emitter.
    ///   - third: The third emitter.
    /// - Returns: An emitter of `(Value, B.Value, C.Value)` triples.
    public func combineLatest<B: EmitterProtocol, C: EmitterProtocol>(
        _ second: B,
        _ third: C
    ) -> Emitter<(Value, B.Value, C.Value)> {
        let upstreamA = emitter
        let upstreamB = second.emitter
        let upstreamC = third.emitter
        var a = upstreamA.lastValue
        var b = upstreamB.lastValue
        var c = upstreamC.lastValue
        let output = Emitter<(Value, B.Value, C.Value)>()
        if let a, let b, let c { output.storage.prime((a, b, c)) }
        let links = UpstreamLinks(ending: output)
        links.observe(upstreamA) { value in
            a = value
            if let b, let c { output.send((value, b, c)) }
        }
        links.observe(upstreamB) { value in
            b = value
            if let a, let c { output.send((a, value, c)) }
        }
        links.observe(upstreamC) { value in
            c = value
            if let a, let b { output.send((a, b, value)) }
        }
        return output
    }
}
