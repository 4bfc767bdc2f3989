internal import Synchronization

/// A regular expression that tasks can share.
///
/// `Regex` is not `Sendable` (its compiled program is cached inside a class;
/// swift-experimental-string-processing issue #792), and rules must be, so
/// that a ``Validation`` can be a global or a `static let`. The regex is
/// taken as `sending` (no other reference to it remains) and only used
/// under a lock, so no two threads ever touch it at once.
final class SharedRegex: Sendable {
    private let regex: Mutex<Regex<AnyRegexOutput>>

    init<Output>(_ regex: sending Regex<Output>) {
        self.regex = Mutex(Regex<AnyRegexOutput>(regex))
    }

    /// Whether the whole of `string` matches.
    func wholeMatches(_ string: String) -> Bool {
        regex.withLock { string.wholeMatch(of: $0) != nil }
    }
}
