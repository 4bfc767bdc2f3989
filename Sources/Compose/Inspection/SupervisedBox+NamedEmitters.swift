extension SupervisedBox: NamedEmitters {
    /// The forwarded emitters, as `forward(\.worker.didFinish)`.
    package var namedEmitters: [(name: String, emitter: any EmitterProtocol)] {
        forwards.compactMap { keyPath, forward in
            (forward.output as? any EmitterProtocol).map { (Self.forwardName(keyPath), $0) }
        }
    }
}
