/// The tracer of one emitter (its first observer while the app counts or
/// records sends, see `EmitterStorage.setTracing(_:)`): counts the
/// emitter's sends and, while the app records events, has them recorded.
///
/// Not generic, so that the tracer's closure, made where the emitter's
/// value type is not known, counts a send without generic metadata: a
/// counted send costs a few loads and adds, not a generic call.
@MainActor
final class SendTracer {
    /// Sends counted (see ``AppContext/countsSends``); kept while the
    /// tracer is off, so counts resume where they stopped.
    var sendCount = 0
    /// The owner's app's tracing state (counts every traced send, says
    /// whether sends are recorded). `nil` while the tracer is off.
    var events: EventTrace?
    /// The emitter's path in events (`chat.server.connections`), made at
    /// its first recorded send and kept while its owner does not change.
    var name: String?

    nonisolated init() {}
}
