/// Builds the ``RuleSet`` of a ``Field`` or an ``Each`` from a list of
/// rules: any ``ValidationRule``, ``Equal``, ``Custom`` and other
/// ``RuleSet``s, with `if`, `if let`, `switch` and `for` as in any result
/// builder (decided when the rules are built, not per value).
///
/// ```swift
/// Field(\.password) {
///     Length(8...64)
///     if requiresDigits { Matches(/.*[0-9].*/) }
/// }
/// ```
@resultBuilder
public enum RuleBuilder<Root, Value> {
    /// A rule about the value alone.
    public static func buildExpression<Rule: ValidationRule>(_ rule: Rule) -> RuleSet<Root, Value> where Rule.Value == Value {
        RuleSet([AnyRule(rule)])
    }

    /// An ``Equal`` rule.
    public static func buildExpression(_ rule: Equal<Root, Value>) -> RuleSet<Root, Value> where Value: Equatable & Sendable {
        RuleSet([rule.anyRule])
    }

    /// A ``Custom`` rule.
    public static func buildExpression(_ rule: Custom<Root, Value>) -> RuleSet<Root, Value> {
        RuleSet([rule.anyRule])
    }

    /// The rules of another rule set, in their order.
    public static func buildExpression(_ rules: RuleSet<Root, Value>) -> RuleSet<Root, Value> {
        rules
    }

    /// The rules of each line, in order.
    public static func buildBlock(_ parts: RuleSet<Root, Value>...) -> RuleSet<Root, Value> {
        RuleSet(parts.flatMap(\.rules))
    }

    /// The rules of an `if` that held, or none.
    public static func buildOptional(_ part: RuleSet<Root, Value>?) -> RuleSet<Root, Value> {
        part ?? RuleSet([])
    }

    /// The rules of the branch taken.
    public static func buildEither(first part: RuleSet<Root, Value>) -> RuleSet<Root, Value> {
        part
    }

    /// The rules of the branch taken.
    public static func buildEither(second part: RuleSet<Root, Value>) -> RuleSet<Root, Value> {
        part
    }

    /// The rules of every turn of a `for` loop, in order.
    public static func buildArray(_ parts: [RuleSet<Root, Value>]) -> RuleSet<Root, Value> {
        RuleSet(parts.flatMap(\.rules))
    }

    /// The rules of an `if #available` branch.
    public static func buildLimitedAvailability(_ part: RuleSet<Root, Value>) -> RuleSet<Root, Value> {
        part
    }
}
