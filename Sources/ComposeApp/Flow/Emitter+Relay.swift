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
    /// effect, it ends with that scope, or when this emitter's owner goes
    /// away (a child process whose component was removed): then it stops
    /// listening to `sink` too, so a long-lived sink relayed to by many
    /// short-lived sources keeps no observer of theirs. A sink that goes
    /// while full (closed, its component removed, freed) holds nothing
    /// back: `source` resumes, and what it sends then is dropped.
    ///
    /// Call it from the component that owns (or is an ancestor of) both
    /// streams: a component may observe only its own and its descendants'
    /// emitters, and the relay observes `sink.didBecomeWritable`.
    public func relay(to sink: some WritableStream, pausing source: some ReadableStream) {
        let valve = RelayValve(source: source)
        valve.watch(sink)
        emitter.observe({ chunk in
            chunk.withUnsafeBytes { valve.passed(sink.write($0)) }
        }, onCancel: { valve.stop() })
    }
}

extension EmitterProtocol where Value == String {
    /// Writes every line this emitter sends to `sink`, followed by `\n`,
    /// with the back-pressure of `EmitterProtocol.relay(to:pausing:)`.
    ///
    /// ```swift
    /// child.output.relay(to: connection, pausing: child)
    /// ```
    public func relay(to sink: some WritableStream, pausing source: some ReadableStream) {
        let valve = RelayValve(source: source)
        valve.watch(sink)
        emitter.observe({ line in
            var text = line + "\n"
            text.withUTF8Inline { valve.passed(sink.write(UnsafeRawBufferPointer($0))) }
        }, onCancel: { valve.stop() })
    }
}

/// Pauses a relay's source while its sink is full.
@MainActor
final class RelayValve {
    private weak var source: (any ReadableStream)?
    private var isPaused = false
    /// The observation of the sink's `didBecomeWritable`, cancelled with the relay.
    private var drainedSubscription: Subscription?

    init(source: any ReadableStream) {
        self.source = source
    }

    /// Resumes the source at the sink's `didBecomeWritable` (also sent when
    /// a full sink closes), or when the observation ends without the relay
    /// ending it (the sink's component removed, the sink freed): a sink
    /// that is gone holds nothing back.
    func watch(_ sink: some WritableStream) {
        drainedSubscription = sink.didBecomeWritable.observe({ [weak self] in self?.drained() }, onCancel: { [weak self] in self?.sinkWentAway() })
    }

    /// The relay ended: stop listening to the sink.
    func stop() {
        let subscription = drainedSubscription
        drainedSubscription = nil
        subscription?.cancel()
    }

    private func sinkWentAway() {
        guard drainedSubscription != nil else { return }
        drainedSubscription = nil
        drained()
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
