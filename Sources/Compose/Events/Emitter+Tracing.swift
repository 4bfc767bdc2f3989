extension Emitter {
    /// Whether the app counts or records this emitter's sends (its tracer
    /// is installed, see ``AppContext/countsSends``): three loads, for a
    /// hot path that reports something else at the emitter's path only
    /// while someone watches (a connection's writes, see
    /// ``recordTraced(_:value:)``).
    @inlinable
    package var isTraced: Bool {
        storage.state.pointee.isTraced
    }

    /// Records an event of `kind` at this emitter's path, with the value
    /// `describe` makes, while the app records events; otherwise only
    /// counts it (a follower that fell behind learns what it missed from
    /// the count). Call it only while ``isTraced``: it does nothing
    /// otherwise.
    ///
    /// - Parameters:
    ///   - kind: What happened (``AppEvent/Kind/wrote`` for a connection's
    ///     write, at the path of its received-bytes emitter).
    ///   - describe: The event's value, made only when it is recorded.
    package func recordTraced(_ kind: AppEvent.Kind, value describe: () -> String?) {
        storage.recordTraced(kind, value: describe)
    }
}

extension EmitterStorage {
    /// See ``Emitter/recordTraced(_:value:)``.
    func recordTraced(_ kind: AppEvent.Kind, value describe: () -> String?) {
        guard state.pointee.isTraced, let tracer = state.pointee.tracer, let events = tracer.events else { return }
        events.sends &+= 1
        guard events.isOn, let owner, let context = owner.context else { return }
        context.record(kind, path: eventPath(tracer: tracer, owner: owner), value: describe())
    }
}
