/// The rule that the whole of a string matches a regular expression.
///
/// ```swift
/// Each(\.tags, "tag") { Matches(/[a-z]+/) }      // "tag[1] is not in the expected format"
/// Field(\.code) { Matches(/[A-Z]{3}-[0-9]{4}/, message: "Codes look like ABC-1234") }
/// ```
///
/// The regex must match the whole value (`wholeMatch`), so no anchors are
/// needed; write `/.*word.*/` to accept the pattern anywhere. The regex is
/// taken as `sending` because `Regex` is not `Sendable`: pass a literal or a
/// regex made for this rule, not one kept elsewhere.
public struct Matches<Value: StringProtocol>: ValidationRule {
    private let customMessage: String?
    private let pattern: SharedRegex

    /// - Parameters:
    ///   - regex: What the whole value must match.
    ///   - message: The error's message instead of the default "*field* is
    ///     not in the expected format".
    public init<Output>(_ regex: sending Regex<Output>, message: String? = nil) {
        customMessage = message
        pattern = SharedRegex(regex)
    }

    public var rule: ValidationError.Rule { .matches }

    public func message(for value: Value, field: String) -> String? {
        pattern.wholeMatches(String(value)) ? nil : customMessage ?? "\(field) is not in the expected format"
    }
}
