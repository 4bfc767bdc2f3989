public import Compose

/// What a test expects of one `AppEvent`: its kind, where it happened,
/// optionally the value sent (compared by description) and when.
///
/// ```swift
/// app.events.expect(
///     .sent("counter.increment"),                 // a signal, any value
///     .sent("counter.count", 1),                  // the value 1
///     .didAppear("app.settings", at: .seconds(5)),
///     .routed("app", to: "settings")
/// )
/// ```
///
/// A path may leave out the root's label: `"counter.count"` also matches
/// `"app.counter.count"` in an app whose root is `app`. A store's emitter
/// may be named as in code, `"server.$linesSeen"` for the `$linesSeen` of
/// `@Store var linesSeen`: events name it `server.linesSeen`, and the
/// pattern matches that.
public struct EventPattern: Sendable, CustomStringConvertible {
    /// The kind of event.
    public let kind: AppEvent.Kind
    /// The emitter's or component's path.
    public let path: String
    /// The described value it must carry; `nil` accepts any.
    public let value: String?
    /// The time it must happen at; `nil` accepts any.
    public let time: Duration?

    /// An event matching `kind` at `path`, carrying `value` (any when
    /// `nil`), at `time` (any when `nil`).
    public init(_ kind: AppEvent.Kind, _ path: String, value: String? = nil, at time: Duration? = nil) {
        self.kind = kind
        self.path = path
        self.value = value
        self.time = time
    }

    /// The emitter at `path` sent something (a signal, or any value).
    public static func sent(_ path: String, at time: Duration? = nil) -> EventPattern {
        EventPattern(.sent, path, at: time)
    }

    /// The emitter at `path` sent `value` (compared by its description).
    public static func sent<Value>(_ path: String, _ value: Value, at time: Duration? = nil) -> EventPattern {
        EventPattern(.sent, path, value: AppEvent.describe(value), at: time)
    }

    /// The component at `path` appeared.
    public static func didAppear(_ path: String, at time: Duration? = nil) -> EventPattern {
        EventPattern(.didAppear, path, at: time)
    }

    /// The component at `path` disappeared.
    public static func didDisappear(_ path: String, at time: Duration? = nil) -> EventPattern {
        EventPattern(.didDisappear, path, at: time)
    }

    /// The component at `path` became the deepest focused one.
    public static func didEnterFocus(_ path: String, at time: Duration? = nil) -> EventPattern {
        EventPattern(.didEnterFocus, path, at: time)
    }

    /// The component at `path` stopped being the deepest focused one.
    public static func didLeaveFocus(_ path: String, at time: Duration? = nil) -> EventPattern {
        EventPattern(.didLeaveFocus, path, at: time)
    }

    /// The router of the component at `path` now shows the child `route`
    /// (its property label, or `self`).
    public static func routed(_ path: String, to route: String, at time: Duration? = nil) -> EventPattern {
        EventPattern(.routed, path, value: route, at: time)
    }

    /// Whether `event` matches, in an app whose root is labelled
    /// `rootLabel`.
    public func matches(_ event: AppEvent, rootLabel: String) -> Bool {
        guard event.kind == kind else { return false }
        let path = eventPath
        guard event.path == path || event.path == rootLabel + "." + path else { return false }
        if let value, event.value != value { return false }
        if let time, event.time != time { return false }
        return true
    }

    /// ``path`` as events name it: each `$name` segment (a store's
    /// projected emitter, as code writes it) is `name`.
    public var eventPath: String {
        guard path.contains("$") else { return path }
        return path.split(separator: ".", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("$") ? String($0.dropFirst()) : String($0) }
            .joined(separator: ".")
    }

    /// `counter.count sent 1`, `app.settings didAppear at 5s`.
    public var description: String {
        var text = "\(path) \(kind.rawValue)"
        if let value { text += kind == .routed ? " to \(value)" : " \(value)" }
        if let time { text += " at \(AppEvent.format(time))" }
        return text
    }
}
