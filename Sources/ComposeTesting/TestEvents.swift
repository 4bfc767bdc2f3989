public import Compose
public import Testing

/// Everything that happened in a ``TestApp`` (``TestApp/events``): every
/// emitter send, lifecycle and route change, with its path and virtual
/// time; and assertions on them in the spirit of TCA's `TestStore`.
/// Writes to connections (`AppEvent.Kind.wrote`, which `compose inspect
/// follow` shows) are not among them: read them from the peers.
///
/// ```swift
/// let app = TestApp(root: Counter())
/// app.run { app.root(as: Counter.self)?.increment.send() }
/// app.events.expect(.sent("counter.increment"), .sent("counter.count", 1))
/// ```
///
/// Assert the events you expect, in order. In exhaustive mode (the
/// default) an event you did not assert fails the test, naming the event:
/// one that comes before the next one you expect, and, when the app goes
/// away (or at ``expectNoMoreEvents(sourceLocation:)``), every one left.
/// The check starts with the test's first assertion, so a test that never
/// looks at events is not held to them; what the app did while it started
/// (binding, the first `didAppear`s) needs no assertion.
/// ``Exhaustivity/off(showSkipped:)`` skips what was not asserted, for
/// large integration tests.
@MainActor
public final class TestEvents: @MainActor RandomAccessCollection {
    /// How strictly unasserted events are treated.
    public enum Exhaustivity: Equatable, Sendable {
        /// Every event must be asserted.
        case on
        /// Events between assertions are skipped; with `showSkipped`, each
        /// is listed as a known issue so the test's output shows it.
        case off(showSkipped: Bool)

        /// Events between assertions are skipped silently.
        public static let off = Exhaustivity.off(showSkipped: false)
    }

    /// How strictly unasserted events are treated (``Exhaustivity/on`` by
    /// default). Setting it to `.on` starts the check at once.
    public var exhaustivity: Exhaustivity = .on {
        didSet { if exhaustivity == .on { isChecking = true } }
    }

    private var recorded: [AppEvent] = []
    /// Events before this index are asserted, skipped, or were the start.
    private var cursor = 0
    private var isChecking = false
    private let rootLabel: () -> String
    private let createdAt: SourceLocation

    init(context: AppContext, createdAt: SourceLocation, rootLabel: @escaping () -> String) {
        self.rootLabel = rootLabel
        self.createdAt = createdAt
        context.tracesEvents = true
        // Writes to connections are for inspectors (`follow`); a test
        // reads what was written from its peers, and asserts sends.
        context.events += { [unowned self] event in
            if event.kind != .wrote { self.recorded.append(event) }
        }
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { recorded.count }
    public subscript(position: Int) -> AppEvent { recorded[position] }

    /// The events not asserted or skipped yet.
    public var unasserted: ArraySlice<AppEvent> { recorded[cursor...] }

    // MARK: Assertions

    /// Asserts that the events that happened since the last assertion are
    /// `patterns`, in order (in exhaustive mode; otherwise that they
    /// happened in this order, other events in between skipped).
    ///
    /// Fails the test naming each unasserted event before a match (in
    /// exhaustive mode) and each pattern that did not happen.
    public func expect(_ patterns: EventPattern..., sourceLocation: SourceLocation = #_sourceLocation) {
        isChecking = isChecking || exhaustivity == .on
        let root = rootLabel()
        for pattern in patterns {
            guard let found = recorded[cursor...].firstIndex(where: { pattern.matches($0, rootLabel: root) }) else {
                Issue.record(Comment(rawValue: "Expected \"\(pattern)\", which did not happen.\(Self.hint(for: pattern, in: recorded[cursor...], rootLabel: root)) \(describeRest())"), sourceLocation: sourceLocation)
                return
            }
            let passed = recorded[cursor..<found]
            if !passed.isEmpty {
                switch exhaustivity {
                case .on:
                    Issue.record(Comment(rawValue: "Unasserted event\(passed.count == 1 ? "" : "s") before \"\(pattern)\":\n" + Self.list(passed)), sourceLocation: sourceLocation)
                case .off(let showSkipped):
                    if showSkipped { showSkippedEvents(passed, sourceLocation: sourceLocation) }
                }
            }
            cursor = found + 1
        }
    }

    /// Marks every event so far as asserted (listing them as known issues
    /// when the exhaustivity says to show skipped events).
    public func skipAll(sourceLocation: SourceLocation = #_sourceLocation) {
        skip(recorded.count - cursor, sourceLocation: sourceLocation)
    }

    /// Marks the next `count` events as asserted.
    public func skip(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let end = Swift.min(recorded.count, cursor + Swift.max(0, count))
        if case .off(showSkipped: true) = exhaustivity, cursor < end {
            showSkippedEvents(recorded[cursor..<end], sourceLocation: sourceLocation)
        }
        cursor = end
    }

    /// Fails the test, naming them, if events happened that were not
    /// asserted (in exhaustive mode). `TestApp` checks this when it goes
    /// away.
    public func expectNoMoreEvents(sourceLocation: SourceLocation = #_sourceLocation) {
        isChecking = isChecking || exhaustivity == .on
        checkRest(sourceLocation: sourceLocation)
    }

    // The end-of-test check: what was left unasserted. In a plain
    // (nonisolated) deinit, which runs where the app was released, with the
    // task-locals Swift Testing uses to tell which test an issue belongs
    // to; an `isolated deinit` runs without them. It reads only Sendable
    // stored values of an object nothing else references any more.
    deinit {
        guard isChecking, exhaustivity == .on, cursor < recorded.count else { return }
        let rest = recorded[cursor...]
        Issue.record(Comment(rawValue: "\(rest.count) unasserted event\(rest.count == 1 ? "" : "s"):\n" + Self.list(rest)), sourceLocation: createdAt)
    }

    /// Marks the events so far as the app's start, which needs no
    /// assertion.
    func startHasEnded() {
        cursor = recorded.count
    }

    private func checkRest(sourceLocation: SourceLocation) {
        guard exhaustivity == .on, cursor < recorded.count else { return }
        let rest = recorded[cursor...]
        cursor = recorded.count
        Issue.record(Comment(rawValue: "\(rest.count) unasserted event\(rest.count == 1 ? "" : "s"):\n" + Self.list(rest)), sourceLocation: sourceLocation)
    }

    private func showSkippedEvents(_ events: ArraySlice<AppEvent>, sourceLocation: SourceLocation) {
        withKnownIssue(isIntermittent: true) {
            Issue.record(Comment(rawValue: "Skipped \(events.count) event\(events.count == 1 ? "" : "s"):\n" + Self.list(events)), sourceLocation: sourceLocation)
        }
    }

    /// When an event of the pattern's kind happened at a path that differs
    /// from the pattern's only in how a segment is spelled (`_name`, the
    /// storage of `@Store var name`; another case), names the path to write.
    private static func hint(for pattern: EventPattern, in events: ArraySlice<AppEvent>, rootLabel: String) -> String {
        func key(_ path: String) -> [String] {
            path.split(separator: ".", omittingEmptySubsequences: false).map { segment in
                segment.drop { $0 == "$" || $0 == "_" }.lowercased()
            }
        }
        let wanted = key(pattern.eventPath)
        let near = events.first { event in
            guard event.kind == pattern.kind, event.path != pattern.eventPath, event.path != rootLabel + "." + pattern.eventPath else { return false }
            let have = key(event.path)
            return have == wanted || have == [rootLabel.lowercased()] + wanted
        }
        guard let near else { return "" }
        return " Events name it \"\(near.path)\" (a store's emitter `$name` is \"name\" or \"$name\")."
    }

    private func describeRest() -> String {
        let rest = recorded[cursor...]
        return rest.isEmpty ? "No event happened since the last assertion." : "Events since the last assertion:\n" + Self.list(rest)
    }

    private nonisolated static func list(_ events: ArraySlice<AppEvent>) -> String {
        let shown = events.prefix(50).map { "  \($0)" }.joined(separator: "\n")
        return events.count > 50 ? shown + "\n  … and \(events.count - 50) more" : shown
    }
}
