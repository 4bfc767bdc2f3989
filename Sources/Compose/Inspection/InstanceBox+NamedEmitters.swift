extension InstanceBox: NamedEmitters {
    /// The forwarded emitters, as `forward(\.connection.didClose)`.
    package var namedEmitters: [(name: String, emitter: any EmitterProtocol)] {
        forwards.compactMap { keyPath, forward in
            (forward.output as? any EmitterProtocol).map { (Self.forwardName(keyPath), $0) }
        }
    }
}
