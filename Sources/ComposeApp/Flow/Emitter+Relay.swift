import Compose

extension EmitterProtocol where Value == ByteChunk {
    /// Writes every chunk this emitter sends to `sink`, pausing `source`
    /// while `sink` is full and resuming it when `sink` drains: a slow sink
    /// slows its source down instead of making the process buffer without
    /// bound.
    ///
    /// ```swift
    /// // A proxy: what the client sends goes to the backend, and back.
    /// client.received.relay(to: backend, pausing: client)
    /// backend.received.relay(to: client, pausing: backend)
    /// ```
    ///
    /// The relay is an observer like any other: registered in the scope in
    /// effect, it ends with that scope (or with this emitter's owner).
    public func relay(to sink: some WritableStream, pausing source: some ReadableStream) {
        let valve = RelayValve(source: source)
        emitter.observe { chunk in
            chunk.withUnsafeBytes { valve.passed(sink.write($0)) }
        }
        sink.drained.observe { valve.drained() }
    }
}

extension EmitterProtocol where Value == String {
    /// Writes every line this emitter sends to `sink`, followed by `\n`,
    /// with the back-pressure of ``EmitterProtocol/relay(to:pausing:)``.
    ///
    /// ```swift
    /// child.output.relay(to: connection, pausing: child)
    /// ```
    public func relay(to sink: some WritableStream, pausing source: some ReadableStream) {
        let valve = RelayValve(source: source)
        emitter.observe { line in
            var text = line + "\n"
            text.withUTF8 { valve.passed(sink.write(UnsafeRawBufferPointer($0))) }
        }
        sink.drained.observe { valve.drained() }
    }
}

/// Pauses a relay's source while its sink is full.
@MainActor
final class RelayValve {
    private weak var source: (any ReadableStream)?
    private var isPaused = false

    init(source: any ReadableStream) {
        self.source = source
    }

    func passed(_ result: WriteResult) {
        guard result == .full, !isPaused else { return }
        isPaused = true
        source?.pauseReading()
    }

    func drained() {
        guard isPaused else { return }
        isPaused = false
        source?.resumeReading()
    }
}
