public import Compose

/// Records what an emitter sends, for assertions.
///
/// ```swift
/// let sent = Recorder(messages)
/// messages.send("hi")
/// #expect(sent.values == ["hi"])
/// ```
@MainActor
public final class Recorder<Value> {
    /// The values received, in order.
    public private(set) var values: [Value] = []
    private var subscription: Subscription?

    /// Starts recording `emitter`.
    public init<E: EmitterProtocol>(_ emitter: E) where E.Value == Value {
        subscription = emitter += { [unowned self] value in
            self.values.append(value)
        }
    }

    /// How many values were received.
    public var count: Int { values.count }

    /// Stops recording.
    public func cancel() {
        subscription?.cancel()
    }

    isolated deinit {
        subscription?.cancel()
    }
}

/// An ordered log of named events, for asserting the order of callbacks
/// across several emitters (lifecycle order, for example).
@MainActor
public final class EventLog {
    /// The events, in the order they happened.
    public private(set) var events: [String] = []

    /// An empty log.
    public init() {}

    /// Appends `event`.
    public func record(_ event: String) {
        events.append(event)
    }

    /// Forgets every event so far.
    public func clear() {
        events.removeAll()
    }
}
