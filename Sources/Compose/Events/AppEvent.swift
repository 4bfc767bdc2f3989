/// One thing that happened in a running app, as its context records it
/// while ``AppContext/tracesEvents`` is on: an emitter of a component sent,
/// a component appeared, disappeared or took focus, a router changed
/// route, or a connection wrote. Each event carries where it happened (a
/// path from the root) and when (the app's clock).
///
/// ```swift
/// context.tracesEvents = true
/// context.events += { event in print(event) }   // 60s heartbeat.timer sent
/// ```
public struct AppEvent: Hashable, Sendable, CustomStringConvertible {
    /// What kind of thing happened.
    public enum Kind: String, Hashable, Sendable {
        /// The emitter at ``AppEvent/path`` sent ``AppEvent/value``.
        case sent
        /// The component at ``AppEvent/path`` became part of the active tree.
        case didAppear
        /// The component at ``AppEvent/path`` left the active tree.
        case didDisappear
        /// The component at ``AppEvent/path`` became the deepest focused one.
        case didEnterFocus
        /// The component at ``AppEvent/path`` stopped being the deepest
        /// focused one.
        case didLeaveFocus
        /// The router of the component at ``AppEvent/path`` changed its
        /// stack; ``AppEvent/value`` is the new top route's label.
        case routed
        /// The connection at ``AppEvent/path`` (a component's property
        /// holding a `TCPConnection`) was written to; ``AppEvent/value``
        /// is the size and the start of what was written:
        /// `12 bytes "Hello, ada!\n"`.
        case wrote
    }

    /// When it happened, on the app's clock (virtual time in a test).
    public let time: Duration
    /// What happened.
    public let kind: Kind
    /// Where: an emitter's path (`chat.server.connections`: the component's
    /// path, then the property) for ``Kind/sent``, a component's path
    /// otherwise.
    public let path: String
    /// The value sent, described (at most ``maximumValueLength``
    /// characters), or the new route; `nil` for a signal (`Void`) and for
    /// lifecycle events.
    public let value: String?
    /// The value sent, as JSON, when a trace recorder asked for the sends
    /// at ``path`` (see `AppContext.captureValues(atPaths:encode:)`) and
    /// the value is `Encodable`; `nil` otherwise. This is the form a
    /// recorded trace replays.
    public let json: String?

    /// How long a described value may be before it is cut short.
    public static let maximumValueLength = 200

    /// Makes an event.
    public init(time: Duration, kind: Kind, path: String, value: String? = nil, json: String? = nil) {
        self.time = time
        self.kind = kind
        self.path = path
        self.value = value
        self.json = json
    }

    /// `2.5s chat.server.connections sent 127.0.0.1:49152`.
    public var description: String {
        "\(Self.format(time)) \(summary)"
    }

    /// The description without the time:
    /// `chat.server.connections sent 127.0.0.1:49152`.
    package var summary: String {
        var text = "\(path) \(kind.rawValue)"
        if let value { text += kind == .routed ? " to \(value)" : " \(value)" }
        return text
    }

    /// The description of `value` for an event: `nil` for `Void`, cut to
    /// ``maximumValueLength`` characters.
    public static func describe<Value>(_ value: Value) -> String? {
        if Value.self == Void.self { return nil }
        // A string (a line, most often) is its own description, and the
        // commonest values describe themselves without the dynamic casts
        // `String(describing:)` makes to find how (about 2,000
        // instructions per value).
        let text: String
        if Value.self == String.self {
            text = reinterpret(value, as: String.self)
        } else if Value.self == Substring.self {
            text = String(reinterpret(value, as: Substring.self))
        } else if Value.self == Int.self {
            text = String(reinterpret(value, as: Int.self))
        } else if Value.self == Bool.self {
            text = String(reinterpret(value, as: Bool.self))
        } else if Value.self == Double.self {
            text = String(reinterpret(value, as: Double.self))
        } else {
            text = String(describing: value)
        }
        // No more bytes than the limit: no more characters either, without
        // counting them.
        guard text.utf8.count > maximumValueLength, text.count > maximumValueLength else { return text }
        return String(text.prefix(maximumValueLength)) + "…"
    }

    /// `value` as the type it is known to be (`Value.self == T.self`).
    private static func reinterpret<Value, T>(_ value: Value, as type: T.Type) -> T {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: T.self, capacity: 1) { $0.pointee } }
    }

    /// A time as events show it: `0s`, `2.5s`, `0.001s` (seconds, without
    /// trailing zeros).
    public static func format(_ time: Duration) -> String {
        let (seconds, attoseconds) = time.components
        guard attoseconds != 0 else { return "\(seconds)s" }
        var fraction = String(attoseconds / 1_000_000_000)   // nanoseconds
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction)s"
    }
}
