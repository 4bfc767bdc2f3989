/// Builds a ``Validation`` from a list of ``Field``s, ``Each``es and other
/// validations of the same state, with `if`, `switch` and `for` as in any
/// result builder (decided when the validation is built, not per state).
///
/// ```swift
/// let rules = Validation<Profile> {
///     Field(\.name) { NonEmpty() }
///     if requiresPhone { Field(\.phone) { NonEmpty() } }
///     contactRules   // another Validation<Profile>
/// }
/// ```
@resultBuilder
public enum ValidationBuilder<State> {
    /// A field checked by rules or a nested validation.
    public static func buildExpression<Value>(_ field: Field<State, Value>) -> Validation<State> {
        Validation([field.check])
    }

    /// An array field whose elements are checked.
    public static func buildExpression<Element>(_ field: Each<State, Element>) -> Validation<State> {
        Validation([field.check])
    }

    /// The fields of another validation, in their order.
    public static func buildExpression(_ validation: Validation<State>) -> Validation<State> {
        validation
    }

    /// The fields of each line, in order.
    public static func buildBlock(_ parts: Validation<State>...) -> Validation<State> {
        Validation(parts.flatMap(\.checks))
    }

    /// The fields of an `if` that held, or none.
    public static func buildOptional(_ part: Validation<State>?) -> Validation<State> {
        part ?? Validation([])
    }

    /// The fields of the branch taken.
    public static func buildEither(first part: Validation<State>) -> Validation<State> {
        part
    }

    /// The fields of the branch taken.
    public static func buildEither(second part: Validation<State>) -> Validation<State> {
        part
    }

    /// The fields of every turn of a `for` loop, in order.
    public static func buildArray(_ parts: [Validation<State>]) -> Validation<State> {
        Validation(parts.flatMap(\.checks))
    }

    /// The fields of an `if #available` branch.
    public static func buildLimitedAvailability(_ part: Validation<State>) -> Validation<State> {
        part
    }
}
