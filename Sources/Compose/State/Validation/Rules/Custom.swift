/// A rule given as a closure: the value (and, if the closure takes it, the
/// whole state) is valid when it returns `true`.
///
/// ```swift
/// Field(\.age) {
///     Custom("must be 18 or over") { $0 >= 18 }          // "age must be 18 or over"
/// }
/// Field(\.end) {
///     Custom("must come after the start") { end, booking in end > booking.start }
/// }
/// ```
///
/// The closure is `@Sendable`: a ``Validation`` can be used from any task.
/// For a rule used in several places, a ``ValidationRule`` type reads
/// better.
public struct Custom<Root, Value>: Sendable {
    let anyRule: AnyRule<Root, Value>

    /// A rule about the value alone.
    ///
    /// - Parameters:
    ///   - requirement: What the value must be, after the field's name:
    ///     "must be even" gives "count must be even".
    ///   - rule: The rule's name in errors; ``ValidationError/Rule/custom``
    ///     by default.
    ///   - message: The error's message instead of "*field* *requirement*".
    ///   - isValid: Whether the value keeps the rule.
    public init(
        _ requirement: String,
        rule: ValidationError.Rule = .custom,
        message: String? = nil,
        _ isValid: @escaping @Sendable (Value) -> Bool
    ) {
        self.init(requirement, rule: rule, message: message) { value, _ in isValid(value) }
    }

    /// A rule about the value within the whole state.
    ///
    /// - Parameters:
    ///   - requirement: What the value must be, after the field's name.
    ///   - rule: The rule's name in errors; ``ValidationError/Rule/custom``
    ///     by default.
    ///   - message: The error's message instead of "*field* *requirement*".
    ///   - isValid: Whether the value (first argument) keeps the rule in
    ///     the state (second argument).
    public init(
        _ requirement: String,
        rule: ValidationError.Rule = .custom,
        message: String? = nil,
        _ isValid: @escaping @Sendable (Value, Root) -> Bool
    ) {
        anyRule = AnyRule { value, root, field in
            isValid(value, root)
                ? nil
                : ValidationError(field: field, rule: rule, message: message ?? "\(field) \(requirement)")
        }
    }
}
