/// The rules of one field, in the order they are declared: what the
/// trailing closure of a ``Field`` or an ``Each`` builds.
///
/// Name one to share it between fields or validations:
///
/// ```swift
/// let passwordRules = RuleSet<SignUp, String> {
///     Length(8...64)
///     Matches(/.*[0-9].*/, message: "password needs a digit")
/// }
///
/// let rules = Validation<SignUp> {
///     Field(\.password) { passwordRules }
/// }
/// ```
///
/// - `Root` is the state the ``Validation`` checks (what ``Equal`` and
///   ``Custom`` may read), `Value` the type of the field (of one element,
///   for an ``Each``).
public struct RuleSet<Root, Value>: Sendable {
    let rules: [AnyRule<Root, Value>]

    init(_ rules: [AnyRule<Root, Value>]) {
        self.rules = rules
    }

    /// Creates a rule set from a list of rules.
    ///
    /// - Parameter rules: The rules, checked in this order.
    public init(@RuleBuilder<Root, Value> _ rules: () -> RuleSet<Root, Value>) {
        self = rules()
    }

    /// The errors of `value`, one per broken rule, in declaration order.
    func check(_ value: Value, in root: Root, field: String, into errors: inout [ValidationError]) {
        for rule in rules {
            if let error = rule.check(value, root, field) { errors.append(error) }
        }
    }
}

/// One rule of a ``RuleSet``, whatever its kind.
struct AnyRule<Root, Value>: Sendable {
    /// The error for `value` (in `root`, named `field`), or `nil`.
    let check: @Sendable (_ value: Value, _ root: Root, _ field: String) -> ValidationError?

    init(_ check: @escaping @Sendable (Value, Root, String) -> ValidationError?) {
        self.check = check
    }

    init<R: ValidationRule>(_ rule: R) where R.Value == Value {
        check = { value, _, field in
            rule.message(for: value, field: field).map { ValidationError(field: field, rule: rule.rule, message: $0) }
        }
    }
}
