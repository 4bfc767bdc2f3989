extension TCPConnection: CustomStringConvertible {
    /// The peer's address, ``remoteAddress`` (`127.0.0.1:53122`,
    /// `unix:/run/app.sock`): what an inspector's tree shows as the last
    /// connection an emitter sent, and `follow` as the value sent.
    nonisolated public var description: String { remoteAddress }
}
